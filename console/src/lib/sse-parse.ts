/** Server-sent events framing (text/event-stream) → events; pure so it is unit-tested. */
export interface StreamEvent {
  type: string;
  data: unknown;
}

/** splits an SSE buffer into complete events; returns the unparsed rest */
export function parseSse(buffer: string, emit: (e: StreamEvent) => void): string {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) continue;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* plain text data */
    }
    emit({ type, data: parsed });
  }
  return rest;
}
