import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from "@headlessui/react";
import type { User } from "@stockbridge/shared";
import { Link } from "@tanstack/react-router";
import { LogOut, Settings, UserRound } from "lucide-react";

const ITEM =
  "flex w-full items-center gap-2 px-4 py-2 text-left text-sm text-gray-700 data-focus:bg-gray-100 data-focus:text-gray-900";

function displayName(user: Pick<User, "name"> | null | undefined): string {
  return user?.name?.trim() || "User";
}

function initials(name: string): string {
  const parts = name.split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "U";
}

/** The top bar's avatar menu: name (fallback 'User') and email, then Profile, Settings, Logout. */
export function AvatarMenu({ user, onLogout }: { user: User | null; onLogout(): void }) {
  const name = displayName(user);
  const letters = initials(name);
  return (
    <Menu>
      <MenuButton
        // The name starts with what the button shows (WCAG 2.5.3): "EE, Account menu" is what a voice
        // user says; a photo shows no letters.
        aria-label={user?.profileImage ? "Account menu" : `${letters}, Account menu`}
        className="flex items-center gap-2 rounded-full p-0.5 hover:bg-gray-100 data-open:bg-gray-100"
      >
        {user?.profileImage ? (
          <img src={user.profileImage} alt="" className="size-9 rounded-full object-cover" />
        ) : (
          <span
            aria-hidden="true"
            className="inline-flex size-9 items-center justify-center rounded-full bg-accent-100 text-sm font-semibold text-accent-800"
          >
            {letters}
          </span>
        )}
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-50 mt-2 w-64 rounded-lg bg-white py-1 shadow-lg ring-1 ring-gray-200 focus:outline-none"
      >
        <div className="px-4 py-3">
          <p className="truncate text-sm font-semibold text-gray-900">{name}</p>
          {user?.email ? <p className="truncate text-sm text-gray-500">{user.email}</p> : null}
        </div>
        <MenuSeparator className="my-1 h-px bg-gray-200" />
        <MenuItem>
          <Link to="/profile" className={ITEM}>
            <UserRound className="size-4" aria-hidden="true" />
            Profile
          </Link>
        </MenuItem>
        <MenuItem>
          <Link to="/settings" className={ITEM}>
            <Settings className="size-4" aria-hidden="true" />
            Settings
          </Link>
        </MenuItem>
        <MenuItem>
          <button type="button" onClick={onLogout} className={ITEM}>
            <LogOut className="size-4" aria-hidden="true" />
            Logout
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
