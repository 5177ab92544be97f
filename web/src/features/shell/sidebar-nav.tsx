import { Link, useRouterState } from "@tanstack/react-router";
import { ChevronDown, Lock, LogOut } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { cn } from "../../ui/cn.ts";
import { GATED_HINT, NAV_ENTRIES, type NavGroup, type NavLink } from "./nav-items.ts";

const ROW =
  "flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-100 hover:text-gray-900";
const ACTIVE = "data-[status=active]:bg-accent-50 data-[status=active]:text-accent-700";

export interface SidebarNavProps {
  /** Whether the user may open gated entries; gated entries are marked when false. */
  hasAccess: boolean;
  onLogout(): void;
  /** Called after a link is followed (the drawer closes). */
  onNavigate?(): void;
}

/** The sidebar entries; used by the fixed sidebar (wide screens) and the drawer (narrow screens). */
export function SidebarNav({ hasAccess, onLogout, onNavigate }: SidebarNavProps) {
  return (
    <nav aria-label="Main" className="flex h-full flex-col gap-1 overflow-y-auto px-3 py-4">
      <ul className="flex flex-col gap-1">
        {NAV_ENTRIES.map((entry) =>
          entry.kind === "group" ? (
            <NavGroupItem key={entry.label} group={entry} hasAccess={hasAccess} onNavigate={onNavigate} />
          ) : (
            <li key={entry.to}>
              <NavLinkItem link={entry} hasAccess={hasAccess} onNavigate={onNavigate} />
            </li>
          ),
        )}
      </ul>
      <div className="mt-auto border-t border-gray-200 pt-2">
        <button type="button" onClick={onLogout} className={ROW}>
          <LogOut className="size-4 text-gray-500" aria-hidden="true" />
          Logout
        </button>
      </div>
    </nav>
  );
}

function NavLinkItem({
  link,
  hasAccess,
  onNavigate,
  nested,
}: {
  link: NavLink;
  hasAccess: boolean;
  onNavigate?: (() => void) | undefined;
  nested?: boolean;
}) {
  const locked = Boolean(link.gated) && !hasAccess;
  const Icon = link.icon;
  return (
    <Link
      to={link.to}
      onClick={() => onNavigate?.()}
      className={cn(ROW, ACTIVE, nested && "pl-10")}
      title={locked ? GATED_HINT : undefined}
    >
      {Icon ? <Icon className="size-4 shrink-0 text-gray-500" aria-hidden="true" /> : null}
      <span className="flex-1">{link.label}</span>
      {locked ? <LockMark /> : null}
    </Link>
  );
}

function NavGroupItem({
  group,
  hasAccess,
  onNavigate,
}: {
  group: NavGroup;
  hasAccess: boolean;
  onNavigate?: (() => void) | undefined;
}) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const inside = pathname.startsWith(group.pathPrefix);
  const [open, setOpen] = useState(inside);
  const listId = useId();
  const locked = Boolean(group.gated) && !hasAccess;
  const Icon = group.icon;
  // Opening a page of the group (from anywhere) unfolds it; the user may fold it again.
  useEffect(() => {
    if (inside) setOpen(true);
  }, [inside]);
  const expanded = open;
  return (
    <li>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setOpen(!expanded)}
        className={cn(ROW, inside && "text-accent-700")}
        title={locked ? GATED_HINT : undefined}
      >
        <Icon className="size-4 shrink-0 text-gray-500" aria-hidden="true" />
        <span className="flex-1 text-left">{group.label}</span>
        {locked ? <LockMark /> : null}
        <ChevronDown
          className={cn("size-4 text-gray-500 transition-transform", expanded && "rotate-180")}
          aria-hidden="true"
        />
      </button>
      <ul id={listId} hidden={!expanded} className="mt-1 flex flex-col gap-1">
        {group.children.map((child) => (
          <li key={child.to}>
            <NavLinkItem link={child} hasAccess={hasAccess} onNavigate={onNavigate} nested />
          </li>
        ))}
      </ul>
    </li>
  );
}

function LockMark() {
  return (
    <>
      <Lock className="size-3.5 shrink-0 text-gray-400" aria-hidden="true" />
      <span className="sr-only">({GATED_HINT})</span>
    </>
  );
}
