import { type ExecutionHistorySummary, MESSAGES } from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { toast } from "../../ui/toast.tsx";
import { historyKeys } from "./queries.ts";

/**
 * 'Discard' and 'Approve' for a held run, each behind a confirmation. Either refreshes the history:
 * an approved run shows as running, then with its outcome.
 */
export function HeldRunActions({ entry }: { entry: ExecutionHistorySummary }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<"approve" | "discard" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: historyKeys.all });

  const approve = useMutation({
    mutationFn: () => api.call("approveExecution", { params: { id: entry._id } }),
    onSuccess: async () => {
      toast.success(MESSAGES.history.approved);
      setConfirming(null);
      await refresh();
    },
    onError: async (failure) => {
      toast.error(errorMessage(failure, MESSAGES.history.approveFailed));
      setConfirming(null);
      await refresh();
    },
  });
  const discard = useMutation({
    mutationFn: () => api.call("discardExecution", { params: { id: entry._id } }),
    onSuccess: async () => {
      toast.success(MESSAGES.history.discarded);
      setConfirming(null);
      await refresh();
    },
    onError: async (failure) => {
      toast.error(errorMessage(failure, MESSAGES.history.discardFailed));
      setConfirming(null);
      await refresh();
    },
  });
  const changes = entry.review?.changes ?? 0;

  return (
    <>
      <Button variant="secondary" onClick={() => setConfirming("discard")}>
        Discard
      </Button>
      <Button onClick={() => setConfirming("approve")}>Approve</Button>
      <ConfirmDialog
        open={confirming === "approve"}
        onClose={() => setConfirming(null)}
        onConfirm={() => approve.mutate()}
        loading={approve.isPending}
        tone="primary"
        title="Approve Held Run"
        confirmLabel="Approve"
        message={`Write the ${changes} ${changes === 1 ? "change" : "changes"} of this plan to Shopify? Each one is written only where Shopify still shows the value the plan saw; anything changed since is reported, not overwritten.`}
      />
      <ConfirmDialog
        open={confirming === "discard"}
        onClose={() => setConfirming(null)}
        onConfirm={() => discard.mutate()}
        loading={discard.isPending}
        title="Discard Held Run"
        confirmLabel="Discard"
        message="Discard this run? Nothing is written to Shopify. The run stays in Execution History as discarded, with its plan."
      />
    </>
  );
}
