import {
  ACUMATICA_API_VERSIONS,
  ACUMATICA_MAX_SESSIONS,
  type AcumaticaConnection,
  MESSAGES,
  validateAcumaticaForm,
} from "@stockbridge/shared";
import { useCallback } from "react";
import { useApi } from "../../lib/services-context.tsx";
import { PasswordInput } from "../../ui/password-input.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { ApiVersionSelect, ConnectionCard } from "./connection-card.tsx";
import {
  type AcumaticaFormValues,
  acumaticaFormFrom,
  acumaticaInput,
  acumaticaVersion,
  SAVED_SECRET_PLACEHOLDER,
} from "./connection-form.ts";
import { useConnectionForm } from "./use-connection-form.ts";

export interface AcumaticaConnectionCardProps {
  connection: AcumaticaConnection | null;
  /** The form's starting values (the saved connection, or the sandbox demo after a fill). */
  initial: AcumaticaFormValues;
}

/**
 * The Acumatica card: every field of spec section 3, plus the connection's session limit (licence
 * seats), save, test. Typed input survives any error.
 */
export function AcumaticaConnectionCard({ connection, initial }: AcumaticaConnectionCardProps) {
  const api = useApi();
  const passwordSaved = connection?.passwordSet ?? false;
  const validate = useCallback(
    (values: AcumaticaFormValues) => validateAcumaticaForm(values, { passwordSaved }),
    [passwordSaved],
  );
  const { form, card } = useConnectionForm({
    connection,
    initial,
    validate,
    formFrom: acumaticaFormFrom,
    save: (values) => api.call("saveAcumatica", { body: acumaticaInput(values) }),
    test: () => api.call("testAcumatica"),
    cached: (answer) => ({ acumaticaConnection: answer }),
    messages: {
      updated: MESSAGES.connections.acumaticaUpdated,
      updateFailed: MESSAGES.connections.acumaticaUpdateFailed,
      testOk: MESSAGES.connections.acumaticaTestOk,
      testFailed: MESSAGES.connections.acumaticaTestFailed,
    },
  });

  return (
    <ConnectionCard system="Acumatica" {...card}>
      <TextInput label="Name" autoComplete="off" required {...form.field("name")} />
      <ApiVersionSelect
        versions={ACUMATICA_API_VERSIONS}
        toVersion={acumaticaVersion}
        field={form.field("apiVersion")}
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
      <TextInput
        label="Max Sessions"
        type="number"
        inputMode="numeric"
        min={ACUMATICA_MAX_SESSIONS.min}
        max={ACUMATICA_MAX_SESSIONS.max}
        step={1}
        required
        hint="Acumatica sessions this connection opens at once (each takes an API user seat of the licence); more work waits its turn."
        {...form.field("maxSessions")}
      />
    </ConnectionCard>
  );
}
