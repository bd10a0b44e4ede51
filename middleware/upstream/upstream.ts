// The router's link to the legacy service: which mode, and the forwarder and shadow queue that mode needs.

import type { Emit } from '../events/service-events.js';
import { createForwarder, type Forward } from './forward.js';
import {
  DEFAULT_UPSTREAM_MAX_BODY_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  isUpstreamMode,
  type DivergenceEvent,
  type ShadowOptions,
  type UpstreamMode,
  type UpstreamOptions,
} from './options.js';
import { headerAllowlist } from './outgoing-headers.js';
import { ShadowTraffic } from './shadow.js';

export interface UpstreamSettings {
  mode?: UpstreamMode;
  upstream?: UpstreamOptions;
  shadow?: ShadowOptions;
  onDivergence?: (event: DivergenceEvent) => void;
  /** Request headers sent upstream (default DEFAULT_FORWARD_HEADERS); our key and request id always are. */
  forwardHeaders?: readonly string[];
}

/** `close()` stops what the link started: kept-alive upstream connections, the shadow queue and its worker. */
export type UpstreamLink = { close(): Promise<void> } & (
  | { mode: 'off' }
  | { mode: 'fallback' | 'proxy'; forward: Forward }
  | { mode: 'shadow'; shadow: ShadowTraffic }
);

/** Checks the settings (a mode other than `off` needs an http(s) upstream URL) and builds what the mode uses. */
export function linkUpstream(settings: UpstreamSettings, emit: Emit): UpstreamLink {
  const mode = settings.mode ?? 'off';
  if (!isUpstreamMode(mode))
    throw new Error(`Upstream mode must be off, fallback, shadow or proxy, not ${String(mode)}`);
  if (mode === 'off') return { mode, close: async () => {} };
  const url = settings.upstream?.url;
  if (url === undefined || !/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    throw new Error(`Upstream mode ${mode} needs the legacy service's base URL (http or https) in upstream.url`);
  }
  const upstream = {
    ...settings.upstream,
    url,
    timeoutMs: settings.upstream?.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: settings.upstream?.maxBodyBytes ?? DEFAULT_UPSTREAM_MAX_BODY_BYTES,
  };
  const forwardHeaders = headerAllowlist(settings.forwardHeaders);
  if (mode === 'shadow') {
    const shadow = new ShadowTraffic({
      upstream,
      forwardHeaders,
      shadow: settings.shadow ?? {},
      ...(settings.onDivergence && { onDivergence: settings.onDivergence }),
      emit,
    });
    return { mode, shadow, close: () => shadow.close() };
  }
  const forwarder = createForwarder(upstream, forwardHeaders, emit);
  return { mode, forward: forwarder.forward, close: async () => forwarder.close() };
}
