import { CANCEL_PAGE_REDIRECT_MS } from "@stockbridge/shared";
import { useNavigate } from "@tanstack/react-router";
import { CircleX } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { StatusPanel } from "./status-panel.tsx";
import { secondsLeft } from "./subscription-view.ts";

/** Where Stripe's checkout returns after 'Cancel': back to the plans after 5 seconds, or at once. */
export function SubscriptionCancelScreen() {
  const navigate = useNavigate();
  const [remaining, setRemaining] = useState(() => secondsLeft(CANCEL_PAGE_REDIRECT_MS, 0));

  useEffect(() => {
    const deadline = Date.now() + CANCEL_PAGE_REDIRECT_MS;
    const tick = setInterval(() => setRemaining(secondsLeft(deadline, Date.now())), 250);
    const leave = setTimeout(() => {
      void navigate({ to: "/subscription", replace: true });
    }, CANCEL_PAGE_REDIRECT_MS);
    return () => {
      clearInterval(tick);
      clearTimeout(leave);
    };
  }, [navigate]);

  return (
    <StatusPanel
      icon={<CircleX className="size-10 text-gray-400" aria-hidden="true" />}
      title="Subscription Process Cancelled"
    >
      <p>No payment was taken and your subscription has not changed.</p>
      <p role="timer" className="font-medium text-gray-700">
        Returning to the subscription page in {remaining} {remaining === 1 ? "second" : "seconds"}…
      </p>
      <Button onClick={() => void navigate({ to: "/subscription", replace: true })}>
        Return to Subscription Page
      </Button>
    </StatusPanel>
  );
}
