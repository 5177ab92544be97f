import type { ReactNode } from "react";
import { cn } from "./cn.ts";

const TONES = {
  neutral: "bg-gray-100 text-gray-700 ring-gray-200",
  primary: "bg-accent-50 text-accent-700 ring-accent-200",
  success: "bg-green-50 text-green-800 ring-green-200",
  warning: "bg-amber-50 text-amber-800 ring-amber-200",
  error: "bg-red-50 text-red-800 ring-red-200",
} as const;

export type ChipTone = keyof typeof TONES;

export interface ChipProps {
  children: ReactNode;
  tone?: ChipTone;
  icon?: ReactNode;
  className?: string;
}

/** A small status label ('Price', 'completed', 'failed'...). */
export function Chip({ children, tone = "neutral", icon, className }: ChipProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset",
        TONES[tone],
        className,
      )}
    >
      {icon}
      {children}
    </span>
  );
}
