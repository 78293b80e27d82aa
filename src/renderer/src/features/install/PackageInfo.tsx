/**
 * The package a server's runner fetches (`npx -y …`, `uvx …`), installed once into the plugin's
 * folder: what was asked for, the version it is pinned at with the registry's integrity hash,
 * and how many packages came with it; or, where nothing of a package runs before you agree,
 * that it is installed when you confirm.
 */
import type { JSX } from 'react';
import type { PackageView } from '../../../../shared/contract';
import { Icon } from '../../components/Icon';

export function PackageInfo({ pkg }: { pkg: PackageView }): JSX.Element {
  const from = pkg.ecosystem === 'npm' ? 'the npm registry' : 'PyPI';
  return (
    <div className="text-xs" data-package={pkg.status}>
      <p className="flex items-start gap-1.5 text-fg">
        <Icon
          name={pkg.status === 'installed' ? 'check' : 'settings'}
          size={14}
          className={`mt-0.5 shrink-0 ${pkg.status === 'installed' ? 'text-ok' : 'text-warn'}`}
        />
        <span className="min-w-0">
          <code className="font-mono">{pkg.spec || 'its dependencies'}</code> from {from}, as{' '}
          <code className="font-mono">{pkg.runner}</code> would fetch it
          {pkg.status === 'installed' && pkg.version ? (
            <>
              : pinned at <span className="font-medium">{pkg.version}</span>
            </>
          ) : null}
        </span>
      </p>
      <p className="mt-0.5 pl-5 text-fg-muted">{pkg.message}</p>
      {pkg.integrity && (
        <p className="mt-0.5 truncate pl-5 font-mono text-[10.5px] text-fg-subtle" title={pkg.integrity}>
          {pkg.integrity}
        </p>
      )}
    </div>
  );
}
