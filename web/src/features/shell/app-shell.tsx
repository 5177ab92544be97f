import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import { Link, useRouterState } from "@tanstack/react-router";
import { Menu, X } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { BrandMark, BrandName } from "../../ui/brand.tsx";
import { IconButton } from "../../ui/button.tsx";
import { hasSubscriptionAccess } from "../auth/guards.ts";
import { useAuth } from "../auth/use-auth.ts";
import { NotificationBell } from "../notifications/notification-bell.tsx";
import { AvatarMenu } from "./avatar-menu.tsx";
import { SidebarNav } from "./sidebar-nav.tsx";

/**
 * The authenticated layout: a fixed 64 px top bar (with the alerts' bell beside the avatar menu), a
 * 280 px sidebar from 1024 px up, and below that a drawer opened by the menu button that closes
 * after navigation.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { user, store } = useAuth();
  const hasAccess = hasSubscriptionAccess(user);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  // Any navigation (a link, the back button) closes the drawer.
  useEffect(() => {
    if (pathname) setDrawerOpen(false);
  }, [pathname]);

  function logout(): void {
    setDrawerOpen(false);
    void store.logout();
  }

  return (
    <div className="min-h-screen">
      <a
        href="#main-content"
        className="sr-only z-[60] rounded-md bg-white text-sm font-medium text-accent-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:px-4 focus:py-2"
      >
        Skip to content
      </a>
      <header className="fixed inset-x-0 top-0 z-40 flex h-topbar items-center gap-3 border-b border-gray-200 bg-white px-4">
        <IconButton
          label="Open navigation"
          icon={<Menu className="size-5" aria-hidden="true" />}
          onClick={() => setDrawerOpen(true)}
          className="lg:hidden"
          aria-expanded={drawerOpen}
        />
        <Link to="/" className="flex items-center gap-2 rounded-md">
          <BrandMark />
          <BrandName />
        </Link>
        <div className="ml-auto flex items-center gap-2">
          <NotificationBell />
          <AvatarMenu user={user} onLogout={logout} />
        </div>
      </header>

      {/* The sidebar and the drawer end above the offline banner, so Logout is never under it. */}
      <aside className="fixed top-topbar bottom-[var(--offline-banner-height,0px)] left-0 hidden w-sidebar border-r border-gray-200 bg-white lg:block">
        <SidebarNav hasAccess={hasAccess} onLogout={logout} />
      </aside>

      <Dialog open={drawerOpen} onClose={() => setDrawerOpen(false)} className="fixed inset-0 z-50 lg:hidden">
        <DialogBackdrop
          transition
          className="fixed inset-0 bg-gray-900/40 transition-opacity data-closed:opacity-0"
        />
        <DialogPanel
          transition
          className="fixed top-0 bottom-[var(--offline-banner-height,0px)] left-0 flex w-sidebar max-w-[85vw] flex-col bg-white shadow-xl transition-transform duration-200 data-closed:-translate-x-full"
        >
          <div className="flex h-topbar items-center justify-between border-b border-gray-200 px-4">
            <DialogTitle className="flex items-center gap-2">
              <BrandMark />
              <BrandName />
            </DialogTitle>
            <IconButton
              label="Close navigation"
              icon={<X className="size-5" aria-hidden="true" />}
              onClick={() => setDrawerOpen(false)}
            />
          </div>
          <SidebarNav hasAccess={hasAccess} onLogout={logout} onNavigate={() => setDrawerOpen(false)} />
        </DialogPanel>
      </Dialog>

      <main
        id="main-content"
        tabIndex={-1}
        className="pt-topbar pb-[var(--offline-banner-height,0px)] focus:outline-none lg:pl-sidebar"
      >
        <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8">{children}</div>
      </main>
    </div>
  );
}
