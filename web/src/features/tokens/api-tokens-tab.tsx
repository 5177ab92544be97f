import { type CreatedToken, MESSAGES, type PersonalToken } from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { Button } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Chip } from "../../ui/chip.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { toast } from "../../ui/toast.tsx";
import { CreateTokenDialog } from "./create-token-dialog.tsx";
import { NewTokenDialog } from "./new-token-dialog.tsx";
import { tokenKeys, tokensQuery } from "./queries.ts";
import { describeExpiry, describeLastUse, formatTokenDate } from "./token-view.ts";

/** Settings > API Tokens: create (the secret shown once), list with last use, revoke by typing the name. */
export function ApiTokensTab() {
  const api = useApi();
  const queryClient = useQueryClient();
  const tokens = useQuery(tokensQuery(api));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<PersonalToken | null>(null);

  const revoke = useMutation({
    mutationFn: (token: PersonalToken) => api.call("revokeToken", { params: { id: token._id } }),
    onSuccess: async () => {
      toast.success(MESSAGES.tokens.revoked);
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (failure) => toast.error(errorMessage(failure, MESSAGES.tokens.revokeFailed)),
  });

  return (
    <Card
      region
      title="API Tokens"
      actions={
        <Button icon={<Plus className="size-4" aria-hidden="true" />} onClick={() => setCreating(true)}>
          Create token
        </Button>
      }
    >
      <div className="px-5 py-4">
        <p className="text-sm text-gray-600">
          Personal API tokens let scripts, cron jobs and the CLI call Stockbridge as you. They cannot manage
          tokens, change the password or touch billing.
        </p>
        <TokenList
          state={tokens}
          onRetry={() => void tokens.refetch()}
          onCreate={() => setCreating(true)}
          onRevoke={setRevoking}
        />
      </div>
      <CreateTokenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => {
          setCreating(false);
          setCreated(token);
        }}
      />
      <NewTokenDialog token={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={() => (revoking ? revoke.mutate(revoking) : undefined)}
        title="Revoke API token"
        message={
          <>
            Anything using <strong>{revoking?.name}</strong> ({revoking?.prefix}…) stops working at once. This
            cannot be undone.
          </>
        }
        confirmLabel="Revoke"
        requiredText={revoking?.name ?? ""}
        loading={revoke.isPending}
      />
    </Card>
  );
}

interface TokenListProps {
  state: { data?: PersonalToken[] | undefined; isError: boolean };
  onRetry(): void;
  onCreate(): void;
  onRevoke(token: PersonalToken): void;
}

function TokenList({ state, onRetry, onCreate, onRevoke }: TokenListProps) {
  if (!state.data) {
    return (
      <div className="flex justify-center py-12">
        {state.isError ? (
          <div className="text-center text-sm text-gray-600">
            <p>The API tokens could not be loaded.</p>
            <Button variant="secondary" className="mt-3" onClick={onRetry}>
              Try again
            </Button>
          </div>
        ) : (
          <Spinner label="Loading API tokens" />
        )}
      </div>
    );
  }
  if (state.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 py-12 text-center text-sm text-gray-600">
        <KeyRound className="size-8 text-gray-400" aria-hidden="true" />
        <p>No API tokens yet.</p>
        <Button variant="secondary" onClick={onCreate}>
          Create your first token
        </Button>
      </div>
    );
  }
  const now = new Date();
  return (
    <ul aria-label="API tokens" className="mt-4 divide-y divide-gray-200 rounded-md ring-1 ring-gray-200">
      {state.data.map((token) => {
        const expiry = describeExpiry(token, now);
        return (
          <li key={token._id} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="break-all font-medium text-gray-900">{token.name}</span>
                <code className="font-mono text-xs text-gray-600">{token.prefix}…</code>
                {expiry.startsWith("Expired") ? <Chip tone="error">Expired</Chip> : null}
              </p>
              <dl className="mt-1 grid grid-cols-1 gap-x-6 gap-y-0.5 text-xs text-gray-600 sm:grid-cols-3">
                <div className="flex gap-1">
                  <dt>Created</dt>
                  <dd className="text-gray-800">{formatTokenDate(token.createdAt)}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>Last used</dt>
                  <dd className="text-gray-800">{describeLastUse(token)}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>Expires</dt>
                  <dd className="text-gray-800">{expiry}</dd>
                </div>
              </dl>
            </div>
            <Button
              variant="secondary"
              size="sm"
              icon={<Trash2 className="size-4" aria-hidden="true" />}
              aria-label={`Revoke ${token.name}`}
              onClick={() => onRevoke(token)}
            >
              Revoke
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
