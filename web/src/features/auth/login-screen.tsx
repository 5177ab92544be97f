import { MESSAGES, validateLoginForm } from "@stockbridge/shared";
import { useRouter } from "@tanstack/react-router";
import { errorMessage } from "../../lib/errors.ts";
import { useForm } from "../../lib/use-form.ts";
import { PasswordInput } from "../../ui/password-input.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { AuthForm } from "./auth-form.tsx";
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
    <AuthForm
      title="Sign in"
      submitLabel="Sign In"
      loading={loading}
      onSubmit={(event) => void form.handleSubmit(event)}
      switchTo={{ to: "/register", label: "Don't have an account? Sign up" }}
    >
      <TextInput label="Email" type="email" autoComplete="email" required {...form.field("email")} />
      <PasswordInput label="Password" autoComplete="current-password" required {...form.field("password")} />
    </AuthForm>
  );
}
