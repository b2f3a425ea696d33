/**
 * Resolves in a task of its own, after the input, rendering and other tasks waiting before it.
 * Long work split at such points leaves the main thread free in between (a phone's CPU would
 * otherwise hold a tap for the whole of it).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
