import { MESSAGES, validateLoginForm } from "@stockbridge/shared";
import { Link, useRouter } from "@tanstack/react-router";
import { errorMessage } from "../../lib/errors.ts";
import { useForm } from "../../lib/use-form.ts";
import { Button } from "../../ui/button.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { PasswordInput } from "../../ui/password-input.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { safeRedirect } from "./guards.ts";
import { useAuth } from "./use-auth.ts";

/** 'Sign in': email and password; on success back to where the visitor was going, or the dashboard. */
export function LoginScreen({ redirectTo }: { redirectTo?: string | undefined }) {
  const { store, loading } = useAuth();
  const router = useRouter();
  const form = useForm({
    initial: { email: "", password: "" },
    validate: validateLoginForm,
    async onSubmit(values) {
      try {
        await store.login({ email: values.email.trim(), password: values.password });
      } catch (error) {
        toast.error(errorMessage(error, MESSAGES.auth.loginFailed));
        return;
      }
      toast.success(MESSAGES.auth.loginSuccess);
      const target = safeRedirect(redirectTo);
      await (target
        ? router.navigate({ href: target, replace: true })
        : router.navigate({ to: "/dashboard", replace: true }));
    },
  });

  return (
    <>
      <PageHeader title="Sign in" />
      <form noValidate onSubmit={(event) => void form.handleSubmit(event)} className="flex flex-col gap-5">
        <TextInput label="Email" type="email" autoComplete="email" required {...form.field("email")} />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...form.field("password")}
        />
        <Button type="submit" loading={loading} className="w-full">
          Sign In
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-gray-600">
        <Link to="/register" className="font-medium text-accent-700 hover:underline">
          Don't have an account? Sign up
        </Link>
      </p>
    </>
  );
}
