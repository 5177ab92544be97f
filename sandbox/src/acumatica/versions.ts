/** The simulated instance: a 2025 R1 build serving the system `Default` endpoint in six versions. */
const BUILD_VERSION = "25.101.0153";

const DEFAULT_ENDPOINT = "Default";

const ENDPOINT_VERSIONS = [
  "18.200.001",
  "20.200.001",
  "22.200.001",
  "23.200.001",
  "24.200.001",
  "25.200.001",
] as const;

export type EndpointVersion = (typeof ENDPOINT_VERSIONS)[number];

export interface EndpointContext {
  name: string;
  version: EndpointVersion;
  /** 18, 20, 22...: field sets are keyed on this. */
  major: number;
  /** 3 for 17/18.200.001, 4 from 20.200.001 on. */
  contract: number;
}

/** Endpoint names are matched case-insensitively (IIS routing); versions exactly. */
export function resolveEndpoint(name: string, version: string): EndpointContext | undefined {
  if (name.toLowerCase() !== DEFAULT_ENDPOINT.toLowerCase()) return undefined;
  const known = ENDPOINT_VERSIONS.find((candidate) => candidate === version);
  if (!known) return undefined;
  const major = Number(known.slice(0, 2));
  return { name: DEFAULT_ENDPOINT, version: known, major, contract: major >= 20 ? 4 : 3 };
}

/** `GET /entity`: the build plus every system endpoint (only `Default` is simulated). */
export function describeEndpoints(basePath: string) {
  return {
    version: { acumaticaBuildVersion: BUILD_VERSION, databaseVersion: BUILD_VERSION },
    endpoints: ENDPOINT_VERSIONS.map((version) => ({
      name: DEFAULT_ENDPOINT,
      version,
      href: `${basePath}/entity/${DEFAULT_ENDPOINT}/${version}/`,
    })),
  };
}
