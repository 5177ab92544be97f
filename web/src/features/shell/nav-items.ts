import type { LucideIcon } from "lucide-react";
import {
  Boxes,
  CalendarClock,
  CreditCard,
  GitCompareArrows,
  History,
  LayoutDashboard,
  Settings,
} from "lucide-react";

/** Paths of the sidebar; each is a route of the spec's route table. */
export type NavPath =
  | "/dashboard"
  | "/products/shopify"
  | "/products/acumatica"
  | "/mapping"
  | "/mapping-schedule"
  | "/execution-history"
  | "/subscription"
  | "/settings";

export interface NavLink {
  kind: "link";
  label: string;
  to: NavPath;
  icon?: LucideIcon;
  /** Needs an active or trialing subscription (the route guard enforces it; the sidebar marks it). */
  gated?: boolean;
}

export interface NavGroup {
  kind: "group";
  label: string;
  icon: LucideIcon;
  /** Open when the current path starts with this. */
  pathPrefix: string;
  gated?: boolean;
  children: NavLink[];
}

export type NavEntry = NavLink | NavGroup;

/** The sidebar of spec section 2, in order (Logout is added by the sidebar itself). */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { kind: "link", label: "Dashboard", to: "/dashboard", icon: LayoutDashboard },
  {
    kind: "group",
    label: "Products",
    icon: Boxes,
    pathPrefix: "/products",
    gated: true,
    children: [
      { kind: "link", label: "Shopify", to: "/products/shopify", gated: true },
      { kind: "link", label: "Acumatica", to: "/products/acumatica", gated: true },
    ],
  },
  { kind: "link", label: "Mapping", to: "/mapping", icon: GitCompareArrows, gated: true },
  { kind: "link", label: "Mapping Schedule", to: "/mapping-schedule", icon: CalendarClock, gated: true },
  { kind: "link", label: "Execution History", to: "/execution-history", icon: History, gated: true },
  { kind: "link", label: "Subscription", to: "/subscription", icon: CreditCard },
  { kind: "link", label: "Settings", to: "/settings", icon: Settings },
];

export const GATED_HINT = "Requires a subscription";
