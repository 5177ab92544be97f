import { createContext, type ReactNode, useContext } from "react";
import type { Services } from "../services.ts";

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The app's services (api, auth, queryClient) for components; route code uses the router context. */
export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices() needs <ServicesProvider> above it");
  return services;
}

export function useApi() {
  return useServices().api;
}
