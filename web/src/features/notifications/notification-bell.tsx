import { Popover, PopoverButton, PopoverPanel } from "@headlessui/react";
import { MESSAGES, type Notification } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Bell, BellOff } from "lucide-react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { toast } from "../../ui/toast.tsx";
import { bellLabel, notificationTarget, timeAgo, unreadBadge } from "./notification-view.ts";
import { notificationKeys, notificationsQuery } from "./queries.ts";

/**
 * The top bar's bell: the unread count as a badge, and a panel (Headless UI Popover: Enter, Space
 * and Escape from the keyboard, a tap outside closes it) listing the newest alerts. Opening one
 * marks it read and goes to its run; 'Mark all as read' clears the count.
 */
export function NotificationBell() {
  const api = useApi();
  const queryClient = useQueryClient();
  const list = useQuery(notificationsQuery(api));
  const unread = list.data?.unread ?? 0;

  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
  const markRead = useMutation({
    mutationFn: (id: string) => api.call("readNotification", { params: { id } }),
    onSettled: refresh,
  });
  const markAll = useMutation({
    mutationFn: () => api.call("readAllNotifications"),
    onSuccess: refresh,
    onError: (failure) => toast.error(errorMessage(failure, MESSAGES.notifications.readAllFailed)),
  });

  return (
    <Popover>
      <PopoverButton
        aria-label={bellLabel(unread)}
        className="relative inline-flex size-10 items-center justify-center rounded-full text-gray-700 hover:bg-gray-100 data-open:bg-gray-100"
      >
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 ? (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className="absolute -top-0.5 -right-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white"
          >
            {unreadBadge(unread)}
          </span>
        ) : null}
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: "bottom end", gap: 8 }}
        focus
        aria-label="Notifications"
        className="z-50 flex max-h-[min(32rem,calc(100vh-5rem))] w-96 max-w-[calc(100vw-1rem)] flex-col rounded-lg bg-white shadow-lg ring-1 ring-gray-200 focus:outline-none"
      >
        {({ close }) => (
          <>
            <div className="flex items-center justify-between gap-3 border-b border-gray-200 px-4 py-3">
              <h2 className="text-sm font-semibold text-gray-900">Notifications</h2>
              <Button
                variant="ghost"
                size="sm"
                disabled={unread === 0}
                loading={markAll.isPending}
                onClick={() => markAll.mutate()}
              >
                Mark all as read
              </Button>
            </div>
            <NotificationList
              state={list}
              onRetry={() => void list.refetch()}
              onOpen={(notification) => {
                if (!notification.readAt) markRead.mutate(notification._id);
                close();
              }}
            />
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}

interface NotificationListProps {
  state: { data?: { notifications: Notification[] } | undefined; isError: boolean };
  onRetry(): void;
  onOpen(notification: Notification): void;
}

function NotificationList({ state, onRetry, onOpen }: NotificationListProps) {
  if (!state.data) {
    return (
      <div className="flex justify-center px-4 py-8 text-sm text-gray-600">
        {state.isError ? (
          <div className="text-center">
            <p>{MESSAGES.notifications.fetchFailed}</p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
              Try again
            </Button>
          </div>
        ) : (
          <Spinner label="Loading notifications" />
        )}
      </div>
    );
  }
  if (state.data.notifications.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 px-4 py-8 text-center text-sm text-gray-600">
        <BellOff className="size-6 text-gray-400" aria-hidden="true" />
        <p>No notifications yet. Failed, partial, held and missed runs show up here.</p>
      </div>
    );
  }
  const now = new Date();
  return (
    <ul aria-label="Notifications" className="divide-y divide-gray-100 overflow-y-auto">
      {state.data.notifications.map((notification) => {
        const unread = notification.readAt === null;
        return (
          <li key={notification._id}>
            <Link
              {...notificationTarget(notification)}
              onClick={() => onOpen(notification)}
              aria-label={`${unread ? "Unread: " : ""}${notification.title}`}
              className="flex gap-3 px-4 py-3 hover:bg-gray-50 focus-visible:bg-gray-50 focus-visible:outline-none"
            >
              <span
                aria-hidden="true"
                className={cn(
                  "mt-1.5 size-2 shrink-0 rounded-full",
                  unread ? "bg-accent-600" : "bg-transparent",
                )}
              />
              <span className="min-w-0 flex-1">
                <span className={cn("block text-sm text-gray-900", unread && "font-semibold")}>
                  {notification.title}
                </span>
                <span className="mt-0.5 block text-sm break-words text-gray-600">{notification.body}</span>
                <span className="mt-1 block text-xs text-gray-500">
                  {timeAgo(notification.createdAt, now)}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
