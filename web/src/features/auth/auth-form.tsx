import { Link } from "@tanstack/react-router";
import type { FormEvent, ReactNode } from "react";
import { Button } from "../../ui/button.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export interface AuthFormProps {
  title: string;
  submitLabel: string;
  loading: boolean;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** The link under the form to the other auth screen. */
  switchTo: { to: "/login" | "/register"; label: string };
  children: ReactNode;
}

/** The body of the sign-in and sign-up screens: heading, fields, a full-width submit, the switch link. */
export function AuthForm({ title, submitLabel, loading, onSubmit, switchTo, children }: AuthFormProps) {
  return (
    <>
      <PageHeader title={title} />
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        {children}
        <Button type="submit" loading={loading} className="w-full">
          {submitLabel}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-gray-600">
        <Link to={switchTo.to} className="font-medium text-accent-700 hover:underline">
          {switchTo.label}
        </Link>
      </p>
    </>
  );
}
