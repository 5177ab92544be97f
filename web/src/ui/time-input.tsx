import { useState } from "react";
import type { FieldFrameProps } from "./field.tsx";
import { TextInput } from "./text-input.tsx";

export interface TimeInputProps extends Omit<FieldFrameProps, "error"> {
  /** 'HH:MM', 24-hour. */
  value: string;
  onChange(value: string): void;
  required?: boolean;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * A 24-hour 'HH:MM' field, as the schedule list shows times. Not `<input type="time">`: Chromium
 * and Safari show that in the locale's 12-hour form (09:30 PM) in en-US. Typing '930', '0930' or
 * '9.30' becomes '09:30' when the field is left; anything else is named as an error.
 */
export function TimeInput({ value, onChange, ...props }: TimeInputProps) {
  const [touched, setTouched] = useState(false);
  const invalid = touched && value !== "" && !TIME.test(value);
  return (
    <TextInput
      {...props}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="HH:MM"
      maxLength={5}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={() => {
        setTouched(true);
        const normalized = normalizeTime(value);
        if (normalized !== value) onChange(normalized);
      }}
      error={invalid ? "Enter a 24-hour time, 00:00 to 23:59" : undefined}
    />
  );
}

/** '930' / '0930' / '9:30' / '9.30' -> '09:30'; what cannot be read as a time stays as typed. */
export function normalizeTime(text: string): string {
  const match = /^(\d{1,2})[:.h]?(\d{2})$/.exec(text.trim());
  if (!match) return text;
  const time = `${match[1]!.padStart(2, "0")}:${match[2]}`;
  return TIME.test(time) ? time : text;
}
