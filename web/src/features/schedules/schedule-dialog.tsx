import {
  HOUR_INTERVALS,
  type Mapping,
  MESSAGES,
  MINUTE_INTERVALS,
  SCHEDULE_TYPES,
  type Schedule,
} from "@stockbridge/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";
import { useApi } from "../../lib/services-context.tsx";
import { browserTimeZone } from "../../lib/time-zone.ts";
import { Checkbox } from "../../ui/checkbox.tsx";
import { FormDialog } from "../../ui/form-dialog.tsx";
import { Select } from "../../ui/select.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { TimeInput } from "../../ui/time-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { useAuth } from "../auth/use-auth.ts";
import { plansQuery } from "../subscription/queries.ts";
import { MappingMultiSelect } from "./mapping-multi-select.tsx";
import { mappingsByIdsQuery, scheduleKeys } from "./queries.ts";
import {
  canSubmitSchedule,
  formFromSchedule,
  type HourInterval,
  type MinuteInterval,
  newScheduleForm,
  planChoices,
  SCHEDULE_TYPE_LABELS,
  type ScheduleFormState,
  type ScheduleType,
  scheduleInputOf,
  specOf,
  WEEKDAYS,
} from "./schedule-form.ts";

export interface ScheduleDialogProps {
  open: boolean;
  /** The schedule being edited; null creates a new one. */
  editing: Schedule | null;
  onClose(): void;
}

const MONTH_DAYS = Array.from({ length: 31 }, (_, index) => index + 1);

/** 'Create New Schedule' / 'Edit Schedule' (spec section 2 and the form rules of section 5). */
export function ScheduleDialog({ open, editing, onClose }: ScheduleDialogProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const timezone = browserTimeZone();
  const [form, setForm] = useState<ScheduleFormState>(newScheduleForm);
  const [selected, setSelected] = useState<Mapping[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const syncLegendId = useId();
  // The plan's schedule frequencies: what it does not include is offered disabled, with its reason.
  const { user } = useAuth();
  const plans = useQuery({ ...plansQuery(api), enabled: open, meta: { silent: true } });
  const choices = planChoices(user?.subscription, plans.data ?? []);

  // Each opening starts from the schedule (or the defaults); typed input survives a failed save.
  useEffect(() => {
    if (!open) return;
    setForm(editing ? formFromSchedule(editing) : newScheduleForm());
    setSelected([]);
    setFailure(null);
  }, [open, editing]);

  const preselected = useQuery({
    ...mappingsByIdsQuery(api, editing && !editing.isFullSync ? editing.mappingIds : []),
    enabled: open && Boolean(editing && !editing.isFullSync && editing.mappingIds.length > 0),
  });
  useEffect(() => {
    if (open && preselected.data) setSelected(preselected.data.mappings);
  }, [open, preselected.data]);

  const save = useMutation({
    mutationFn: (state: ScheduleFormState) => {
      const body = scheduleInputOf(state, timezone, editing?.status ?? "active");
      return editing
        ? api.call("updateSchedule", { params: { id: editing._id }, body })
        : api.call("createSchedule", { body });
    },
    onSuccess: async () => {
      toast.success(editing ? MESSAGES.schedules.updated : MESSAGES.schedules.created);
      onClose();
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
    onError: (error) =>
      setFailure(
        errorMessage(error, editing ? MESSAGES.schedules.updateFailed : MESSAGES.schedules.createFailed),
      ),
  });

  const update = (changes: Partial<ScheduleFormState>) => setForm((current) => ({ ...current, ...changes }));
  const state: ScheduleFormState = { ...form, mappingIds: selected.map((mapping) => mapping._id) };
  const ready = canSubmitSchedule(state) && !(editing && preselected.isLoading);
  const timed = form.type === "daily" || form.type === "weekly" || form.type === "monthly";
  const refused = choices.refusal(specOf(form));
  const offPlan = (label: string, allowed: boolean) => (allowed ? label : `${label} (not in your plan)`);

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={editing ? "Edit Schedule" : "Create New Schedule"}
      size="lg"
      submitLabel={editing ? "Save" : "Create"}
      canSubmit={ready}
      busy={save.isPending}
      onSubmit={() => {
        setFailure(null);
        save.mutate(state);
      }}
      className="gap-5"
    >
      {failure ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 ring-1 ring-red-200">
          {failure}
        </p>
      ) : null}
      <TextInput
        label="Schedule Name"
        value={form.name}
        onChange={(event) => update({ name: event.target.value })}
        maxLength={100}
        autoComplete="off"
        required
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select<ScheduleType>
          label="Schedule Type"
          value={form.type}
          options={SCHEDULE_TYPES.map((type) => ({
            value: type,
            label: offPlan(SCHEDULE_TYPE_LABELS[type], choices.typeAllowed(type)),
            disabled: !choices.typeAllowed(type),
          }))}
          onChange={(type) => update({ type })}
          hint={choices.note ?? undefined}
        />
        {form.type === "minutely" ? (
          <Select
            label="Interval (minutes)"
            value={String(form.minuteInterval)}
            options={MINUTE_INTERVALS.map((minutes) => ({
              value: String(minutes),
              label: offPlan(`Every ${minutes} minutes`, choices.minutesAllowed(minutes)),
              disabled: !choices.minutesAllowed(minutes),
            }))}
            onChange={(value) => update({ minuteInterval: Number(value) as MinuteInterval })}
          />
        ) : null}
        {form.type === "hourly" ? (
          <Select
            label="Interval (hours)"
            value={String(form.interval)}
            options={HOUR_INTERVALS.map((hours) => ({
              value: String(hours),
              label: offPlan(
                hours === 1 ? "Every hour" : `Every ${hours} hours`,
                choices.hoursAllowed(hours),
              ),
              disabled: !choices.hoursAllowed(hours),
            }))}
            onChange={(value) => update({ interval: Number(value) as HourInterval })}
          />
        ) : null}
        {form.type === "weekly" ? (
          <Select
            label="Day of Week"
            value={String(form.weekday)}
            options={WEEKDAYS.map((name, index) => ({ value: String(index + 1), label: name }))}
            onChange={(value) => update({ weekday: Number(value) })}
          />
        ) : null}
        {form.type === "monthly" ? (
          <Select
            label="Day of Month"
            value={String(form.monthDay)}
            options={MONTH_DAYS.map((day) => ({ value: String(day), label: String(day) }))}
            onChange={(value) => update({ monthDay: Number(value) })}
            hint={form.monthDay > 28 ? "In shorter months it runs on the last day." : undefined}
          />
        ) : null}
        {timed ? (
          <TimeInput
            label="Time"
            value={form.time}
            onChange={(time) => update({ time })}
            hint={`24-hour, your time zone: ${timezone}`}
            required
          />
        ) : null}
      </div>

      {refused ? (
        <p role="note" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {refused}
        </p>
      ) : null}

      <fieldset className="flex flex-col gap-2" aria-labelledby={syncLegendId}>
        <legend id={syncLegendId} className="mb-1 text-sm font-medium text-gray-800">
          Sync Options
        </legend>
        <div className="flex flex-wrap gap-6">
          <Checkbox label="Price" checked={form.price} onChange={(price) => update({ price })} />
          <Checkbox label="Quantity" checked={form.quantity} onChange={(quantity) => update({ quantity })} />
        </div>
        {!form.price && !form.quantity ? (
          <p className="text-xs text-gray-500">{MESSAGES.mapping.selectSyncOption}</p>
        ) : null}
      </fieldset>

      <Checkbox
        label="Check only"
        description="Reads both sides and records what differs (see Drift); writes nothing to Shopify."
        checked={form.checkOnly}
        onChange={(checkOnly) => update({ checkOnly })}
      />

      <Checkbox
        label="Full Sync (Sync all mappings)"
        checked={form.isFullSync}
        onChange={(isFullSync) => {
          update({ isFullSync });
          // Spec section 4: switching to Full Sync clears the selected mappings.
          if (isFullSync) setSelected([]);
        }}
      />
      {form.isFullSync ? null : <MappingMultiSelect selected={selected} onChange={setSelected} />}
    </FormDialog>
  );
}
