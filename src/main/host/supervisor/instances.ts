/**
 * The processes of one plugin that are not its held instance: one-shot processes running a call,
 * and any instance running its stop sequence. Each is stopped once, and remembered until nothing
 * of it runs, so a stop can wait for all of them; each is watched for death once, whatever role
 * it has had.
 */
import type { Failure } from '../../../shared/failures';
import type { IDisposable } from '../../../shared/lifecycle';
import type { StopResult } from '../process/child';
import type { Instance } from './instance';

export class InstancePool implements IDisposable {
  private readonly oneShot = new Set<Instance>();
  private readonly retiring = new Map<Instance, Promise<StopResult | undefined>>();
  private readonly watched = new WeakSet<Instance>();

  constructor(private readonly onDeath: (inst: Instance, cause: Failure) => void) {}

  get oneShots(): Instance[] {
    return [...this.oneShot];
  }

  /** Listens for the instance's death, once per instance. */
  watch(inst: Instance): void {
    if (this.watched.has(inst)) return;
    this.watched.add(inst);
    inst.onDidDie((f) => this.onDeath(inst, f));
  }

  addOneShot(inst: Instance): void {
    this.oneShot.add(inst);
    this.watch(inst);
  }

  forget(inst: Instance): void {
    this.oneShot.delete(inst);
  }

  /** Runs the stop sequence of an instance (once) and resolves, with how it went, when nothing of it runs. */
  retire(inst: Instance): Promise<StopResult | undefined> {
    this.oneShot.delete(inst);
    const already = this.retiring.get(inst);
    if (already) return already;
    const p = inst
      .stop()
      .catch(() => undefined)
      .then((result) => {
        inst.dispose();
        this.retiring.delete(inst);
        return result;
      });
    this.retiring.set(inst, p);
    return p;
  }

  /** Stops every one-shot process and waits for every stop under way. */
  async retireAll(): Promise<void> {
    await Promise.all(this.oneShots.map((i) => this.retire(i)));
    await Promise.all([...this.retiring.values()]);
  }

  /** Kills what is left at once (the host is going away without waiting). */
  dispose(): void {
    for (const i of this.oneShot) {
      i.kill();
      i.dispose();
    }
    this.oneShot.clear();
  }
}
