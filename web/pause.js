// A pause between two steps of a worker's long work, each step its own task, without
// the 4 ms a timer would cost: the messages that came meanwhile (a new ceiling, say) are
// let in, and Chromium, which ends a terminated worker only between its tasks (it lets a
// running one go on up to 2 s), can end it there.
const channel = new MessageChannel();

/** Resolves once the worker's other tasks have had their turn. */
export const pause = () => new Promise((resolve) => {
  channel.port1.onmessage = resolve;
  channel.port2.postMessage(null);
});
