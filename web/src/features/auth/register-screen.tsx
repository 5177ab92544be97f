import { MESSAGES, validateRegisterForm } from "@stockbridge/shared";
import { useRouter } from "@tanstack/react-router";
import { errorMessage } from "../../lib/errors.ts";
import { useForm } from "../../lib/use-form.ts";
import { PasswordInput } from "../../ui/password-input.tsx";
import { TextInput } from "../../ui/text-input.tsx";
import { toast } from "../../ui/toast.tsx";
import { AuthForm } from "./auth-form.tsx";
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
    <AuthForm
      title="Create an account"
      submitLabel="Create Account"
      loading={loading}
      onSubmit={(event) => void form.handleSubmit(event)}
      switchTo={{ to: "/login", label: "Already have an account? Sign in" }}
    >
      <TextInput label="Full Name" autoComplete="name" required {...form.field("name")} />
      <TextInput label="Email Address" type="email" autoComplete="email" required {...form.field("email")} />
      <PasswordInput label="Password" autoComplete="new-password" required {...form.field("password")} />
      <PasswordInput
        label="Confirm Password"
        autoComplete="new-password"
        required
        {...form.field("confirmPassword")}
      />
    </AuthForm>
  );
}
