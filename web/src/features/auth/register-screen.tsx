import { MESSAGES, validateRegisterForm } from "@stockbridge/shared";
import { Link, useRouter } from "@tanstack/react-router";
import { errorMessage } from "../../lib/errors.ts";
import { useForm } from "../../lib/use-form.ts";
import { Button } from "../../ui/button.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { PasswordInput } from "../../ui/password-input.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { useAuth } from "./use-auth.ts";

/** 'Create an account'. Changing the password re-checks the confirmation (errors derive from all values). */
export function RegisterScreen() {
  const { store, loading } = useAuth();
  const router = useRouter();
  const form = useForm({
    initial: { name: "", email: "", password: "", confirmPassword: "" },
    validate: validateRegisterForm,
    async onSubmit(values) {
      try {
        await store.register({
          name: values.name.trim(),
          email: values.email.trim(),
          password: values.password,
        });
      } catch (error) {
        toast.error(errorMessage(error, MESSAGES.auth.registrationFailed));
        return;
      }
      toast.success(MESSAGES.auth.registrationSuccess);
      await router.navigate({ to: "/dashboard", replace: true });
    },
  });

  return (
    <>
      <PageHeader title="Create an account" />
      <form noValidate onSubmit={(event) => void form.handleSubmit(event)} className="flex flex-col gap-5">
        <TextInput label="Full Name" autoComplete="name" required {...form.field("name")} />
        <TextInput
          label="Email Address"
          type="email"
          autoComplete="email"
          required
          {...form.field("email")}
        />
        <PasswordInput label="Password" autoComplete="new-password" required {...form.field("password")} />
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          required
          {...form.field("confirmPassword")}
        />
        <Button type="submit" loading={loading} className="w-full">
          Create Account
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-gray-600">
        <Link to="/login" className="font-medium text-accent-700 hover:underline">
          Already have an account? Sign in
        </Link>
      </p>
    </>
  );
}
