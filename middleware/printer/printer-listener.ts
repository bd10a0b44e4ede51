// A printer on the network: a raw TCP port (9100 by convention) that reads ZPL jobs as a Zebra printer does
// (job-splitter.ts), keeps a printer's memory between jobs (printer-memory.ts), answers ~HS, ~HI and ~HQES
// (printer-answers.ts), draws every label through the render pool and keeps it in the job feed, and passes each
// job on (job-forward.ts). Bounded everywhere: allowed addresses, connections, bytes per job and per connection,
// idle time, labels per job, the render pool's time budget.

import { EventEmitter } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { dotsPerInch, omittedLine, type Dpmm } from '../../renderer/api.js';
import type { DiagnosticsOmitted } from '../../renderer/index.js';
import { RenderError } from '../../renderer/errors.js';
import type { RenderFn } from '../../renderer/pool/index.js';
import type { ServiceEvent } from '../events/service-events.js';
import type { PrintedLabel, PrinterFeed, PrinterJobRecord } from '../stores/printer-feed.js';
import { createMemoryPrinterFeed } from '../stores/memory/printer-feed.js';
import { hostIdentification, hostQueryErrors, hostStatus, type PrinterStatus } from './printer-answers.js';
import { JobForwarder, tcpTarget, type RetryOptions } from './job-forward.js';
import { JobSplitter, type ImmediateCommand } from './job-splitter.js';
import { PrinterMemory, type PrinterSettings } from './printer-memory.js';
import { formatWarnings } from '../label-route/warnings.js';

export const DEFAULT_PRINTER_PORT = 9100;
export const DEFAULT_PRINTER_HOST = '127.0.0.1';
/** A connection silent this long ends (and its unfinished job with it). */
export const DEFAULT_PRINTER_IDLE_MS = 30_000;

export interface PrinterListenerOptions {
  /** The render function: a render pool's `render` (the HTTP API's path). */
  render: RenderFn;
  /** Where jobs and labels are kept (a backend's `printerFeed`); absent, a feed in this process's memory. */
  feed?: PrinterFeed;
  host?: string;
  /** 0 picks a free port. Default 9100. */
  port?: number;
  dpmm?: Dpmm;
  /** The label size when jobs send no ^PW/^LL. Default 4 x 6 in. */
  widthIn?: number;
  heightIn?: number;
  idleMs?: number;
  /** Addresses and CIDRs (`10.0.0.0/8`, `::1`) that may connect; absent, any (the host is loopback by default). */
  allow?: readonly string[];
  /** Connections at once; more are closed at once. Default 32. */
  maxConnections?: number;
  /** Bytes one job may have; a job over it closes its connection, unbuffered. Default 8 MiB. */
  maxJobBytes?: number;
  /** Bytes one connection may send in all. Default 64 MiB. */
  maxConnectionBytes?: number;
  /** Labels one job may print (^PQ copies included). Default 50. */
  maxLabels?: number;
  /** Bytes of ZPL the printer's memory keeps for stored objects and formats. Default 16 MiB. */
  maxMemoryBytes?: number;
  /** Draw each label's PDF as well as its PNG. Default true. */
  pdf?: boolean;
  /** `tcp://host:port` of a real printer every job's bytes go to. */
  forward?: string;
  /** A URL each job's summary is POSTed to (JSON). */
  webhook?: string;
  /** Retries of the forward and the webhook. */
  retry?: RetryOptions;
  /** Service events (metrics, log lines): jobs, refusals, forwards; never label data. */
  emit?: (event: ServiceEvent) => void;
  /** The model ~HI names. */
  model?: string;
}

/** What the ops side may set to test software's error handling. */
export interface PrinterConditions {
  paused?: boolean;
  paperOut?: boolean;
}

export interface PrinterListener extends EventEmitter<{ job: [PrinterJobRecord]; forward: [PrinterJobRecord] }> {
  /** Where the jobs and their labels are kept. */
  readonly feed: PrinterFeed;
  /** Starts listening; resolves with the bound address. */
  listen(): Promise<AddressInfo>;
  address(): AddressInfo | undefined;
  /** What ~HS would say now, and the kept settings. */
  status(): PrinterStatus & { settings: PrinterSettings; storedObjects: string[]; connections: number };
  /** Pauses or resumes printing, takes the paper out or puts it back: held jobs print when both are clear. */
  setConditions(conditions: PrinterConditions): void;
  /** Forgets every stored object and setting, as a printer's restart. */
  restart(): void;
  /** Resolves when every received job is drawn and kept and every forward has finished. */
  settled(): Promise<void>;
  /** Stops listening, ends the connections, stops retrying. */
  close(): Promise<void>;
}

/** Sortable by time, unique in the process: the feed lists newest first by id. */
let sequence = 0;
function jobId(now: Date): string {
  sequence = (sequence + 1) % 1e6;
  const random = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${now.getTime().toString(36).padStart(9, '0')}-${String(sequence).padStart(6, '0')}-${random}`;
}

function allowList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : undefined;
    if (!type) throw new Error(`an allowed printer client must be an address or CIDR, not ${entry}`);
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (type === 'ipv4' ? 32 : 128))
        throw new Error(`an allowed printer client must be an address or CIDR, not ${entry}`);
      list.addSubnet(address, prefix, type);
    }
  }
  return list;
}

function allowed(list: net.BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return list.check(mapped[1]!, 'ipv4') || list.check(address, 'ipv6');
  return list.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
}

export function createPrinterListener(options: PrinterListenerOptions): PrinterListener {
  return new Printer(options);
}

class Printer
  extends EventEmitter<{ job: [PrinterJobRecord]; forward: [PrinterJobRecord] }>
  implements PrinterListener
{
  readonly #o: PrinterListenerOptions;
  readonly feed: PrinterFeed;
  readonly #ownFeed: boolean;
  readonly #server: net.Server;
  readonly #memory: PrinterMemory;
  readonly #allow?: net.BlockList;
  readonly #forwarder?: JobForwarder;
  readonly #sockets = new Set<net.Socket>();
  readonly #dpmm: Dpmm;
  #conditions: Required<PrinterConditions> = { paused: false, paperOut: false };
  #closed = false;
  #resume: (() => void)[] = [];
  /** Jobs received and not yet drawn, with the labels they hold (held while paused: ~HS's buffer and remaining). */
  #waiting = new Map<string, number>();
  readonly #work = new Set<Promise<unknown>>();

  constructor(options: PrinterListenerOptions) {
    super();
    this.#o = options;
    this.#dpmm = options.dpmm ?? 8;
    this.feed = options.feed ?? createMemoryPrinterFeed();
    this.#ownFeed = options.feed === undefined;
    this.#memory = new PrinterMemory(options.maxMemoryBytes ?? 16 * 1024 * 1024);
    if (options.allow && options.allow.length > 0) this.#allow = allowList(options.allow);
    if (options.forward || options.webhook)
      this.#forwarder = new JobForwarder(
        options.forward ? tcpTarget(options.forward) : undefined,
        options.webhook,
        options.retry,
      );
    this.#server = net.createServer((socket) => this.#connection(socket));
  }

  listen(): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#o.port ?? DEFAULT_PRINTER_PORT, this.#o.host ?? DEFAULT_PRINTER_HOST, () => {
        this.#server.off('error', reject);
        resolve(this.#server.address() as AddressInfo);
      });
    });
  }

  address(): AddressInfo | undefined {
    return (this.#server.address() as AddressInfo | null) ?? undefined;
  }

  status(): PrinterStatus & { settings: PrinterSettings; storedObjects: string[]; connections: number } {
    const s = this.#memory.settings;
    const dpi = dotsPerInch(this.#dpmm);
    let labelsRemaining = 0;
    for (const n of this.#waiting.values()) labelsRemaining += n;
    return {
      ...this.#conditions,
      labelLength: s.labelLength ?? Math.trunc((this.#o.heightIn ?? 6) * dpi),
      formatsInBuffer: this.#waiting.size,
      labelsRemaining,
      graphics: this.#memory.graphics,
      ...(s.printMode !== undefined && { printMode: s.printMode }),
      settings: { ...s },
      storedObjects: this.#memory.names(),
      connections: this.#sockets.size,
    };
  }

  setConditions(conditions: PrinterConditions): void {
    this.#conditions = { ...this.#conditions, ...conditions };
    if (this.#printing()) for (const go of this.#resume.splice(0)) go();
  }

  restart(): void {
    this.#memory.clear();
  }

  async settled(): Promise<void> {
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
    await this.#forwarder?.drained();
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    this.#forwarder?.close();
    // Held jobs are given up: a closing printer prints nothing more.
    this.#closed = true;
    for (const go of this.#resume.splice(0)) go();
    await closed;
    await this.settled();
    if (this.#ownFeed) await this.feed.close();
  }

  #printing(): boolean {
    return !this.#conditions.paused && !this.#conditions.paperOut;
  }

  #emit(event: ServiceEvent): void {
    this.#o.emit?.(event);
  }

  #connection(socket: net.Socket): void {
    const client = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
    if (this.#allow && !allowed(this.#allow, socket.remoteAddress)) {
      this.#emit({ type: 'printer_refused', client, reason: 'not-allowed' });
      socket.destroy();
      return;
    }
    if (this.#sockets.size >= (this.#o.maxConnections ?? 32)) {
      this.#emit({ type: 'printer_refused', client, reason: 'connections' });
      socket.destroy();
      return;
    }
    this.#sockets.add(socket);
    const maxJobBytes = this.#o.maxJobBytes ?? 8 * 1024 * 1024;
    const maxConnectionBytes = this.#o.maxConnectionBytes ?? 64 * 1024 * 1024;
    const splitter = new JobSplitter();
    let pending: Buffer[] = [];
    let pendingStart = 0;
    let received = 0;
    let ended = false;
    // Jobs of one connection are drawn in order. Reading pauses while a job's worth of bytes (or 64 jobs) waits, as
    // a printer's receive buffer fills: a fast sender queues no more, and ~HS behind a few held jobs is still read.
    let chain: Promise<void> = Promise.resolve();
    let queued = 0;
    let queuedBytes = 0;
    const full = (): boolean => queued >= 64 || queuedBytes >= maxJobBytes;

    const cut = (end: number): Uint8Array => {
      // One buffer is sliced, not copied: a chunk of many small jobs is cut in place.
      const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      const job = all.subarray(0, end - pendingStart);
      pending = end - pendingStart < all.length ? [all.subarray(end - pendingStart)] : [];
      pendingStart = end;
      return job;
    };
    const submit = (job: Uint8Array): void => {
      const accepted = this.#accept(job, client);
      queued++;
      queuedBytes += job.length;
      if (full()) socket.pause();
      chain = chain
        .then(() => this.#print(accepted))
        .finally(() => {
          queued--;
          queuedBytes -= job.length;
          if (!full() && !ended) socket.resume();
        });
      this.#track(chain);
    };
    const refuse = (reason: 'job-bytes' | 'connection-bytes'): void => {
      this.#emit({ type: 'printer_refused', client, reason });
      ended = true;
      pending = [];
      socket.destroy();
    };
    const finish = (): void => {
      if (ended) return;
      ended = true;
      this.#immediate(socket, splitter.finish());
      if (splitter.jobHasContent) submit(cut(splitter.offset));
      pending = [];
    };

    const idleMs = this.#o.idleMs ?? DEFAULT_PRINTER_IDLE_MS;
    const onIdle = (): void => {
      // Silent because reading is paused (the receive buffer is full): the sender is waiting on us, not idle.
      if (full()) {
        socket.setTimeout(idleMs, onIdle);
        return;
      }
      finish();
      socket.end();
    };
    socket.setTimeout(idleMs, onIdle);
    socket.on('data', (chunk: Buffer) => {
      if (ended) return;
      received += chunk.length;
      if (received > maxConnectionBytes) return refuse('connection-bytes');
      const events = splitter.push(chunk);
      pending.push(chunk);
      for (const e of events) {
        if (e.type === 'end') submit(cut(e.end));
        else if (e.type === 'immediate') this.#answer(socket, e.command);
      }
      if (splitter.offset - pendingStart > maxJobBytes) refuse('job-bytes');
    });
    socket.on('end', () => {
      finish();
      // Answers to queries already written go out before the connection closes.
      socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      // A connection reset after a job's bytes came: what arrived is printed, as a printer prints what it received.
      finish();
      this.#sockets.delete(socket);
    });
  }

  #immediate(socket: net.Socket, events: ReturnType<JobSplitter['finish']>): void {
    for (const e of events) if (e.type === 'immediate') this.#answer(socket, e.command);
  }

  #answer(socket: net.Socket, command: ImmediateCommand): void {
    const write = (text: string): void => {
      if (socket.writable) socket.write(Buffer.from(text, 'latin1'));
    };
    switch (command) {
      case 'HS':
        return write(hostStatus(this.status()));
      case 'HI':
        return write(hostIdentification(this.#o.model ?? 'ZPL-LEGACY-COMPAT', this.#dpmm, 8192));
      case 'HQES':
        return write(hostQueryErrors(this.status()));
      case 'PP':
        return this.setConditions({ paused: true });
      case 'PS':
        return this.setConditions({ paused: false });
    }
  }

  #track(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined);
    this.#work.add(tracked);
    void tracked.finally(() => this.#work.delete(tracked));
  }

  /** A job as it arrived: its id and time, the memory it is drawn after, what it stores kept for the next. */
  #accept(job: Uint8Array, client: string): AcceptedJob {
    const now = new Date();
    const prefix = this.#memory.prefix();
    const memoryWarnings = this.#memory.apply(job);
    const settings = { ...this.#memory.settings };
    const id = jobId(now);
    this.#waiting.set(id, countLabels(job));
    return { id, time: now.toISOString(), client, job, prefix, settings, memoryWarnings };
  }

  async #print(a: AcceptedJob): Promise<void> {
    if (!this.#printing() && !this.#closed) await new Promise<void>((resolve) => this.#resume.push(resolve));
    this.#waiting.delete(a.id);
    const { labels, warnings, error } = this.#closed
      ? { labels: [], warnings: [], error: 'not drawn: the printer port closed while the job was held' }
      : await this.#draw(a);
    const record: PrinterJobRecord = {
      id: a.id,
      time: a.time,
      client: a.client,
      bytes: a.job.length,
      labels: labels.length,
      warnings: [...a.memoryWarnings, ...warnings, ...(error === undefined ? [] : [error])],
    };
    if (this.#o.forward) record.forward = { status: 'retrying', attempts: 0 };
    this.#emit({
      type: 'printer_job',
      jobId: a.id,
      client: a.client,
      bytes: a.job.length,
      labels: labels.length,
      warnings: record.warnings.length,
      ...(error !== undefined && { error }),
    });
    await this.feed.add(record, labels).catch((e: unknown) =>
      this.#emit({
        type: 'notice',
        level: 'warn',
        message: `print job ${a.id} not kept in the feed: ${(e as Error).message}`,
      }),
    );
    this.emit('job', record);
    if (this.#forwarder) this.#pass(a.job, record);
  }

  #pass(bytes: Uint8Array, record: PrinterJobRecord): void {
    const summary = { ...record };
    delete summary.forward;
    const sent = this.#forwarder!.enqueue(bytes, summary, (target, r) => {
      this.#emit({ type: 'printer_forward', jobId: record.id, target, ...r });
      if (target !== 'printer') return;
      record.forward = { status: r.status, attempts: r.attempts, ...(r.error !== undefined && { error: r.error }) };
      const copy = { ...record, forward: { ...record.forward } };
      this.#track(
        this.feed.update(copy).catch((e: unknown) =>
          this.#emit({
            type: 'notice',
            level: 'warn',
            message: `print job ${record.id}: forward ${r.status} not kept in the feed: ${(e as Error).message}`,
          }),
        ),
      );
      this.emit('forward', copy);
    });
    this.#track(sent);
  }

  /** Every label of the job: PNG (and PDF) one render each, at the printer's density and size. */
  async #draw(a: AcceptedJob): Promise<{ labels: PrintedLabel[]; warnings: string[]; error?: string }> {
    const dpi = dotsPerInch(this.#dpmm);
    const doc = Buffer.concat([...a.prefix, a.job]);
    const prefixLength = doc.length - a.job.length;
    const req = {
      dpmm: this.#dpmm,
      widthIn: a.settings.printWidth ? a.settings.printWidth / dpi : (this.#o.widthIn ?? 4),
      heightIn: a.settings.labelLength ? a.settings.labelLength / dpi : (this.#o.heightIn ?? 6),
      maxLabels: this.#o.maxLabels ?? 50,
      tenant: 'printer',
    };
    const labels: PrintedLabel[] = [];
    let warnings: string[] = [];
    try {
      let total = 1;
      for (let index = 0; index < total; index++) {
        const png = await this.#o.render(doc, { ...req, format: 'png', index });
        total = png.totalCount;
        if (index === 0) warnings = jobWarnings(png.warnings, prefixLength, png.warningsOmitted);
        const pdf = this.#o.pdf === false ? undefined : await this.#o.render(doc, { ...req, format: 'pdf', index });
        labels.push({ index, png: png.body, ...(pdf && { pdf: pdf.body }) });
      }
      return { labels, warnings };
    } catch (e) {
      if (e instanceof RenderError && (e.code === 'no-labels' || e.code === 'index-out-of-range'))
        return { labels, warnings };
      return { labels, warnings, error: `not drawn: ${(e as Error).message}` };
    }
  }
}

interface AcceptedJob {
  id: string;
  time: string;
  client: string;
  job: Uint8Array;
  prefix: Uint8Array[];
  settings: PrinterSettings;
  memoryWarnings: string[];
}

/**
 * The renderer's diagnostics of the job's own bytes, offsets within the job, as X-Warnings records; then, when the
 * renderer kept only the first ones, a line counting the rest by command (`and 30 more: ^QQ 30`).
 */
function jobWarnings(
  diagnostics: readonly { byteIndex: number; byteSize: number; command: string; param: number; message: string }[],
  prefixLength: number,
  omitted: DiagnosticsOmitted | undefined,
): string[] {
  const own = diagnostics
    .filter((d) => d.byteIndex >= prefixLength)
    .map((d) => ({ ...d, byteIndex: d.byteIndex - prefixLength }));
  const records = own.map((d) => formatWarnings([d])).filter((w) => w !== '');
  return omitted ? [...records, omittedLine(omitted)] : records;
}

/** Labels a held job will print, for ~HS: its ^XA formats that store no format, times their ^PQ. */
function countLabels(job: Uint8Array): number {
  const text = Buffer.from(job).toString('latin1');
  let n = 0;
  for (const label of text.split(/\^XA/i).slice(1)) {
    if (/\^DF/i.test(label)) continue;
    const copies = /\^PQ(\d+)/i.exec(label);
    n += copies ? Math.max(1, Number(copies[1])) : 1;
  }
  return n;
}
