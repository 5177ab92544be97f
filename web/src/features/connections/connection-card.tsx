import { format } from "date-fns";
import { AlertCircle, CheckCircle2, PlugZap } from "lucide-react";
import type { FormEvent, ReactNode } from "react";
import { Button, IconButton } from "../../ui/button.tsx";
import { Card } from "../../ui/card.tsx";
import { Chip } from "../../ui/chip.tsx";
import { Select } from "../../ui/select.tsx";

export interface ConnectionStatus {
  isVerified: boolean;
  lastTestedAt: string | null;
  lastTestError: string | null;
}

export interface ConnectionCardProps {
  system: "Acumatica" | "Shopify";
  /** The saved connection's status; null when nothing is saved yet. */
  status: ConnectionStatus | null;
  /** The form differs from what is saved (the test always uses the saved settings). */
  dirty: boolean;
  saving: boolean;
  testing: boolean;
  onSubmit(event: FormEvent): void;
  onTest(): void;
  /** Shown under the fields (e.g. the version Shopify served). */
  details?: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/** The frame both connection cards share: status, test button, fields, last test, save button. */
export function ConnectionCard(props: ConnectionCardProps) {
  const { system, status, dirty, saving, testing } = props;
  const verified = status?.isVerified === true;
  return (
    <Card
      region
      title={`${system} connection`}
      className="min-w-0"
      actions={
        <div className="flex items-center gap-2">
          <StatusChip status={status} />
          <IconButton
            label={`Test ${system} connection`}
            variant="secondary"
            loading={testing}
            disabled={status === null || saving}
            onClick={props.onTest}
            icon={
              verified ? (
                <CheckCircle2 className="size-5 text-green-600" aria-hidden="true" />
              ) : (
                <PlugZap className="size-5 text-gray-600" aria-hidden="true" />
              )
            }
          />
        </div>
      }
    >
      <form noValidate onSubmit={props.onSubmit} className="flex flex-col gap-4">
        {props.children}
        {status && !status.isVerified && status.lastTestError ? (
          <div className="flex gap-2 rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
            <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <div className="min-w-0">
              <p className="font-medium">Last test failed</p>
              <p className="mt-0.5 break-words">{status.lastTestError}</p>
            </div>
          </div>
        ) : null}
        {props.details}
        <div className="flex flex-wrap items-center justify-between gap-3 pt-1">
          <p className="text-xs text-gray-500">
            {status === null
              ? "Save the connection, then test it."
              : dirty
                ? "Unsaved changes: a test uses the saved settings."
                : status.lastTestedAt
                  ? `Last tested ${format(new Date(status.lastTestedAt), "MMM d, yyyy HH:mm")}`
                  : "Not tested yet."}
          </p>
          <Button type="submit" loading={saving}>
            Save {system} Settings
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** The form field of a version select (what useForm's `field` answers). */
export interface VersionField {
  name: string;
  value: string;
  error: string | undefined;
  onChange(event: { target: { value: string } }): void;
}

/** The 'API Version' select of both cards; `toVersion` reads a value the list lacks as the default. */
export function ApiVersionSelect<V extends string>(props: {
  versions: readonly V[];
  toVersion(value: string): V;
  field: VersionField;
}) {
  const { field } = props;
  return (
    <Select
      label="API Version"
      options={props.versions.map((version) => ({ value: version, label: version }))}
      name={field.name}
      value={props.toVersion(field.value)}
      onChange={(value) => field.onChange({ target: { value } })}
      error={field.error}
      required
    />
  );
}

function StatusChip({ status }: { status: ConnectionStatus | null }) {
  if (status === null) return <Chip>Not saved</Chip>;
  if (status.isVerified)
    return (
      <Chip tone="success" icon={<CheckCircle2 className="size-3.5" aria-hidden="true" />}>
        Verified
      </Chip>
    );
  if (status.lastTestError) return <Chip tone="error">Test failed</Chip>;
  return <Chip tone="warning">Not verified</Chip>;
}
