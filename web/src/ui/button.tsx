import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { cn } from "./cn.ts";
import { Spinner } from "./spinner.tsx";

const VARIANTS = {
  primary: "bg-accent-600 text-white shadow-sm hover:bg-accent-700 disabled:bg-accent-600/60",
  secondary:
    "bg-white text-gray-800 shadow-sm ring-1 ring-gray-300 ring-inset hover:bg-gray-50 disabled:text-gray-400",
  ghost: "text-gray-700 hover:bg-gray-100 disabled:text-gray-400",
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/60",
} as const;

const SIZES = { sm: "h-8 gap-1.5 px-3 text-sm", md: "h-10 gap-2 px-4 text-sm" } as const;

export type ButtonVariant = keyof typeof VARIANTS;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  /** Shows a spinner in place of the icon and disables the button. */
  loading?: boolean;
  /** An icon before the label (lucide-react element). */
  icon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = "primary",
  size = "md",
  loading = false,
  icon,
  disabled,
  type = "button",
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cn(
        "inline-flex shrink-0 items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed",
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : icon}
      {children}
    </button>
  );
}

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children"> {
  /** The accessible name (also the tooltip). */
  label: string;
  icon: ReactNode;
  variant?: ButtonVariant;
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/** A square button with only an icon; `label` names it for screen readers and as a tooltip. */
export function IconButton({
  label,
  icon,
  variant = "ghost",
  loading = false,
  disabled,
  type = "button",
  className,
  ...rest
}: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      disabled={disabled || loading}
      className={cn(
        "inline-flex size-9 shrink-0 items-center justify-center rounded-md transition-colors disabled:cursor-not-allowed",
        VARIANTS[variant],
        className,
      )}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : icon}
    </button>
  );
}
