import { type CreatedToken, MESSAGES, TokenNameSchema } from "@stockbridge/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import * as v from "valibot";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { FormDialog } from "../../ui/form-dialog.tsx";
import { Select } from "../../ui/select.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { tokenKeys } from "./queries.ts";
import { DEFAULT_EXPIRY, EXPIRY_CHOICES, type ExpiryChoice, expiryDays } from "./token-view.ts";

export interface CreateTokenDialogProps {
  open: boolean;
  onClose(): void;
  /** The new token, secret included: shown once by the caller, never stored. */
  onCreated(token: CreatedToken): void;
}

/** Name and lifetime of a new token; the server's rules (TokenNameSchema) are checked as you type. */
export function CreateTokenDialog({ open, onClose, onCreated }: CreateTokenDialogProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName("");
    setExpiry(DEFAULT_EXPIRY);
    setTouched(false);
  }, [open]);

  const checked = v.safeParse(TokenNameSchema, name);
  const nameError = touched && !checked.success ? checked.issues[0].message : undefined;

  const create = useMutation({
    mutationFn: () => api.call("createToken", { body: { name, expiresInDays: expiryDays(expiry) } }),
    onSuccess: async (token) => {
      onCreated(token);
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
    },
    onError: (failure) => toast.error(errorMessage(failure, MESSAGES.tokens.createFailed)),
  });

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Create API token"
      description="For scripts, cron jobs and the CLI (STOCKBRIDGE_TOKEN). A token cannot manage tokens, the password or billing."
      submitLabel="Create token"
      canSubmit={checked.success}
      busy={create.isPending}
      className="gap-4"
      onSubmit={() => create.mutate()}
    >
      <TextInput
        label="Name"
        value={name}
        maxLength={100}
        autoComplete="off"
        placeholder="Nightly sync"
        error={nameError}
        onChange={(event) => {
          setName(event.target.value);
          setTouched(true);
        }}
        onBlur={() => setTouched(true)}
      />
      <Select<ExpiryChoice> label="Expires" options={EXPIRY_CHOICES} value={expiry} onChange={setExpiry} />
    </FormDialog>
  );
}
