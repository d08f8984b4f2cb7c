/**
 * Answers to the session calls index.html starts before any script has loaded (a signed-in
 * reload). request() takes one when the path, body and headers match exactly, once; every
 * later call goes to the network as usual.
 */
interface BootCalls {
  headers: Record<string, string>;
  calls: Record<string, Promise<Response> | undefined>;
}

declare global {
  interface Window {
    __bootCalls?: BootCalls;
  }
}

const sameHeaders = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const ka = Object.keys(a).filter((k) => k !== 'Content-Type');
  const kb = Object.keys(b).filter((k) => k !== 'Content-Type');
  return ka.length === kb.length && ka.every((k) => a[k] === b[k]);
};

export function takeBootCall(path: string, body: string | undefined, headers: Record<string, string>): Promise<Response> | undefined {
  const boot = typeof window === 'undefined' ? undefined : window.__bootCalls;
  if (!boot) return undefined;
  const key = `${path} ${body ?? ''}`;
  const call = boot.calls[key];
  if (!call) return undefined;
  delete boot.calls[key];
  return sameHeaders(boot.headers, headers) ? call : undefined;
}
