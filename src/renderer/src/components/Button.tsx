/** Buttons in the app's few variants. Every one needs visible text or an aria-label. */
import type { ButtonHTMLAttributes, JSX, ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const base =
  'inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap select-none transition-colors disabled:opacity-45 disabled:pointer-events-none';
const variants: Record<Variant, string> = {
  primary: 'bg-accent text-accent-fg hover:bg-accent-hover',
  secondary: 'border border-line-strong bg-bg text-fg hover:bg-muted',
  ghost: 'text-fg-muted hover:bg-muted hover:text-fg',
  danger: 'border border-line-strong bg-bg text-bad hover:bg-bad-soft',
};
const sizes = { sm: 'h-6 px-2 text-xs', md: 'h-7 px-2.5 text-[13px]' };

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: keyof typeof sizes;
  icon?: IconName;
  children?: ReactNode;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  children,
  className = '',
  type = 'button',
  ...rest
}: ButtonProps): JSX.Element {
  return (
    <button type={type} className={`${base} ${variants[variant]} ${sizes[size]} ${className}`} {...rest}>
      {icon && <Icon name={icon} size={size === 'sm' ? 13 : 14} />}
      {children}
    </button>
  );
}

/** A square icon-only button; `label` is its accessible name and its tooltip. */
export function IconButton({
  icon,
  label,
  size = 'md',
  className = '',
  pressed,
  ...rest
}: Omit<ButtonProps, 'children' | 'icon' | 'variant'> & {
  icon: IconName;
  label: string;
  pressed?: boolean;
}): JSX.Element {
  const dim = size === 'sm' ? 'h-6 w-6' : 'h-7 w-7';
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      className={`inline-flex ${dim} shrink-0 items-center justify-center rounded-md text-fg-muted transition-colors hover:bg-muted hover:text-fg disabled:opacity-40 disabled:pointer-events-none ${pressed ? 'bg-muted text-fg' : ''} ${className}`}
      {...rest}
    >
      <Icon name={icon} size={size === 'sm' ? 14 : 16} />
    </button>
  );
}
