import {
  ACUMATICA_API_VERSIONS,
  type AcumaticaConnection,
  MESSAGES,
  validateAcumaticaForm,
} from "@stockbridge/shared";
import { useMutation } from "@tanstack/react-query";
import { useCallback } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { useForm } from "../../lib/use-form.ts";
import { PasswordInput } from "../../ui/password-input.tsx";
import { Select } from "../../ui/select.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { ConnectionCard } from "./connection-card.tsx";
import {
  type AcumaticaFormValues,
  acumaticaFormFrom,
  acumaticaInput,
  acumaticaVersion,
  SAVED_SECRET_PLACEHOLDER,
} from "./connection-form.ts";
import { useConnectionCache } from "./use-connection-cache.ts";

const VERSION_OPTIONS = ACUMATICA_API_VERSIONS.map((version) => ({ value: version, label: version }));

export interface AcumaticaConnectionCardProps {
  connection: AcumaticaConnection | null;
  /** The form's starting values (the saved connection, or the sandbox demo after a fill). */
  initial: AcumaticaFormValues;
}

/** The Acumatica card: every field of spec section 3, save, test. Typed input survives any error. */
export function AcumaticaConnectionCard({ connection, initial }: AcumaticaConnectionCardProps) {
  const api = useApi();
  const cache = useConnectionCache();
  const passwordSaved = connection?.passwordSet ?? false;
  const validate = useCallback(
    (values: AcumaticaFormValues) => validateAcumaticaForm(values, { passwordSaved }),
    [passwordSaved],
  );

  const save = useMutation({
    mutationFn: (values: AcumaticaFormValues) => api.call("saveAcumatica", { body: acumaticaInput(values) }),
    onSuccess(saved) {
      cache.replace({ acumaticaConnection: saved });
      form.reset(acumaticaFormFrom(saved));
      toast.success(MESSAGES.connections.acumaticaUpdated);
      void cache.refreshUser();
    },
    onError(error) {
      toast.error(errorMessage(error, MESSAGES.connections.acumaticaUpdateFailed));
    },
  });

  const test = useMutation({
    mutationFn: () => api.call("testAcumatica"),
    onSuccess(tested) {
      cache.replace({ acumaticaConnection: tested });
      toast.success(MESSAGES.connections.acumaticaTestOk);
      void cache.refreshUser();
    },
    onError(error) {
      toast.error(errorMessage(error, MESSAGES.connections.acumaticaTestFailed));
      cache.reload();
      void cache.refreshUser();
    },
  });

  const form = useForm<AcumaticaFormValues>({
    initial,
    validate,
    onSubmit: async (values) => {
      await save.mutateAsync(values).catch(() => undefined);
    },
  });

  const savedForm = acumaticaFormFrom(connection);
  const dirty = (Object.keys(savedForm) as (keyof AcumaticaFormValues)[]).some(
    (key) => form.values[key] !== savedForm[key],
  );
  const apiVersion = form.field("apiVersion");

  return (
    <ConnectionCard
      system="Acumatica"
      status={connection}
      dirty={dirty}
      saving={save.isPending}
      testing={test.isPending}
      onSubmit={(event) => void form.handleSubmit(event)}
      onTest={() => test.mutate()}
    >
      <TextInput label="Name" autoComplete="off" required {...form.field("name")} />
      <Select
        label="API Version"
        options={VERSION_OPTIONS}
        name={apiVersion.name}
        value={acumaticaVersion(apiVersion.value)}
        onChange={(value) => apiVersion.onChange({ target: { value } })}
        error={apiVersion.error}
        required
      />
      <TextInput
        label="Instance URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://your-company.acumatica.com"
        required
        {...form.field("instanceUri")}
      />
      <TextInput
        label="Endpoint Name"
        autoComplete="off"
        placeholder="Default"
        required
        {...form.field("endpointName")}
      />
      <TextInput label="Username" autoComplete="off" required {...form.field("username")} />
      <PasswordInput
        label="Password"
        autoComplete="new-password"
        placeholder={passwordSaved ? SAVED_SECRET_PLACEHOLDER : undefined}
        required={!passwordSaved}
        {...form.field("password")}
      />
      <TextInput label="Company" autoComplete="off" required {...form.field("company")} />
    </ConnectionCard>
  );
}
