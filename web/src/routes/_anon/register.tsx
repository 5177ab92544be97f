import { createFileRoute } from "@tanstack/react-router";
import { RegisterScreen } from "../../features/auth/register-screen.tsx";

export const Route = createFileRoute("/_anon/register")({
  component: RegisterScreen,
});
