/**
 * `planLaunch`, and when the command (or its interpreter) is not on the app's PATH, again with the
 * login shell's PATH in front: what a desktop app needs to run `npx -y pkg` or `uvx pkg` as the
 * user's terminal would. The shell runs only on such a miss, once per process.
 */
import { failure, type Failure } from '../../../shared/failures';
import { planLaunch, type LaunchInput, type LaunchPlan } from './launch';
import { loginShellPath, type LoginPathOptions } from './login-path';
import { isNotOnPath } from './resolve';

export async function planLaunchWithShellPath(
  input: LaunchInput,
  opts: LoginPathOptions = {},
): Promise<LaunchPlan | Failure> {
  const first = planLaunch(input);
  if (first.ok || !isNotOnPath(first)) return first;
  const login = await loginShellPath({
    env: input.parentEnv ?? process.env,
    ...(input.platform ? { platform: input.platform } : {}),
    ...opts,
  });
  if (!login.ok) {
    return failure(
      first.code,
      `${first.message}; the login shell's PATH could not be read either: ${login.reason}`,
      first.details,
    );
  }
  const again = planLaunch({ ...input, loginPath: login.path });
  if (again.ok || !isNotOnPath(again)) return again;
  return failure(again.code, `${again.message} (nor on the PATH of the login shell ${login.shell})`, again.details);
}
