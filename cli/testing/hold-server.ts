import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished } from "vitest";

/**
 * A stand-in Acumatica instance that holds every request until released, then answers 401 (bad
 * credentials). Pointing a user's connection at it keeps that user's sync or pull job running for
 * exactly as long as a test needs, without slowing the shared sandbox for other tests.
 */
export async function startHoldServer(): Promise<{ url: string; release(): void }> {
  const held: ServerResponse[] = [];
  let released = false;
  const answer = (response: ServerResponse) =>
    response
      .writeHead(401, { "Content-Type": "application/json" })
      .end('{"message":"You are not logged in."}');
  const server = createServer((request, response) => {
    request.resume();
    if (released) answer(response);
    else held.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    released = true;
    for (const response of held.splice(0)) answer(response);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release() {
      released = true;
      for (const response of held.splice(0)) answer(response);
    },
  };
}
