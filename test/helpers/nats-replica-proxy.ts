// A TCP proxy between one billvend node and one NATS server that plays a NATS replica which diverged:
// the messages a JetStream consumer delivers (those with a `$JS.ACK.<stream>…` reply subject) may be
// rewritten on their way to the node, while every other answer (the JetStream API's message gets,
// which only the stream's leader gives, stream info, KV) passes untouched. That is what the partition
// findings saw: a consumer served by a replica holding a deposed leader's batch where the stream's
// leader holds another one. It speaks the NATS client protocol as the server writes it (INFO, MSG,
// HMSG, PING, PONG, +OK, -ERR); nothing of billvend is faked.
//
// With `gets_subject` set, it plays the stream's *leader* holding that other batch as well: the JetStream
// API's message-get answers (`io.nats.jetstream.api.v1.stream_msg_get_response`, which a node reads as the
// stream leader's word) for messages on that subject go through the same rewrite. That is what the second
// partition finding saw: the new stream leader itself held, where an epoch message had been acknowledged,
// the one batch a deposed leader had in flight there (docs/cluster.md "Partitions, measured").
//
// A rewrite may also drop a delivery: the node then gets the consumer's heartbeats and nothing else, as from a
// consumer whose host lost the stream (test/cluster-tail-stall.test.ts).
//
// On the way to the server it may drop what the node publishes on some subjects (swallow_prefix): a server that
// still answers the node's pings but no longer reaches the Raft leader of a bucket (test/cluster-renewal-redial.test.ts).
import { createServer, connect as tcp_connect, type Server, type Socket } from 'node:net';

/** A delivery as the consumer would send it: its stream sequence, its headers (name → value) and its payload. */
export interface Delivery {
  /** The consumer that delivered it ('' for a message-get answer). */
  consumer: string;
  stream_seq: number;
  headers: Map<string, string>;
  payload: Buffer;
}

/** Returns the delivery to send instead, null to let the real one through, or 'drop' to send nothing (deliveries only). */
export type Rewrite = (delivery: Delivery) => { headers: Map<string, string>; payload: Buffer } | 'drop' | null;

export class NatsReplicaProxy {
  port = 0;
  rewrite: Rewrite = () => null;
  /** Deliveries rewritten so far. */
  rewritten = 0;
  /** Deliveries dropped so far. */
  dropped = 0;
  /** The subject whose message-get answers are rewritten too (the stream leader's copy); null: only deliveries. */
  gets_subject: string | null = null;
  /** Message-get answers rewritten so far. */
  gets_rewritten = 0;
  /**
   * Message-get answers for messages on this subject are replaced by the error nats-server 2.9 answers every
   * JetStream API request with while the server sees no meta-group leader (JSClusterNotAvailErr: 503, err_code
   * 10008, "JetStream system temporarily unavailable"; seen for 19 s by the partition runs of 2026-11-28,
   * docs/cluster.md "Partitions, measured"); null: none is.
   */
  gets_unavailable: string | null = null;
  /**
   * While true, every message-get answer (any stream, a message found or not) is replaced by that error: a server
   * that sees no meta-group leader, as nats-server 2.9 answers then (`jsMsgGetRequest`); direct gets, stream info
   * and publishes pass (test/cluster-meta-leaderless-takeover.test.ts).
   */
  all_gets_unavailable = false;
  /** Message-get answers replaced by that error so far. */
  gets_refused = 0;
  /**
   * How many more direct-get answers of `stream` (a replica's copy) are replaced by "404 Message Not Found", as a
   * replica behind the stream's leader answers for a message it does not hold yet.
   */
  direct_misses = 0;
  /** Direct-get answers replaced so far. */
  direct_missed = 0;
  /** While true, the answer to a stream leader step-down is replaced by that same error (the step-down is refused). */
  refuse_stepdowns = false;
  /** Step-down answers replaced so far. */
  stepdowns_refused = 0;
  /**
   * Rewrites the JetStream API's stream info answers for `stream` (the parsed answer; null keeps it): to play
   * a server that answers while the stream has no leader, with its own lagging replica's state.
   */
  info_rewrite: (answer: { state: { last_seq: number }; cluster?: { leader?: string } }) => object | null = () => null;
  /** Stream info answers rewritten so far. */
  infos_rewritten = 0;
  /**
   * While set, what the node publishes on a subject starting with this prefix never reaches the server (PUB and HPUB
   * frames dropped), while everything else, pings included, passes: a server that answers the node but no longer
   * reaches the Raft leader those requests need (a partition between NATS servers, not between node and server).
   */
  swallow_prefix: string | null = null;
  /** Publications dropped so far. */
  swallowed = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target_port: number, private readonly stream: string) {}

  async start(): Promise<void> {
    this.server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address !== null ? address.port : 0;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server === null ? resolve() : this.server.close(() => resolve())));
  }

  private pipe(client: Socket): void {
    const upstream = tcp_connect(this.target_port, '127.0.0.1');
    this.sockets.add(client);
    this.sockets.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    let sent: Buffer = Buffer.alloc(0);
    client.on('data', (chunk) => {
      const { frames, rest } = split_frames(sent.length === 0 ? chunk : Buffer.concat([sent, chunk]), ['PUB', 'HPUB']);
      sent = rest;
      const out: Buffer[] = [];
      for (const { op, args, frame } of frames) {
        if (op !== 'PUB' && op !== 'HPUB') out.push(frame);
        else if (this.swallow_prefix !== null && args[1].startsWith(this.swallow_prefix)) this.swallowed++;
        else out.push(frame);
      }
      if (out.length > 0) upstream.write(Buffer.concat(out));
    });
    let pending: Buffer = Buffer.alloc(0);
    upstream.on('data', (chunk) => {
      const { frames, rest } = split_frames(pending.length === 0 ? chunk : Buffer.concat([pending, chunk]), ['MSG', 'HMSG']);
      pending = rest;
      const out: Buffer[] = [];
      for (const { op, args, frame, body } of frames) {
        if (body === null) out.push(frame);
        else out.push((op === 'HMSG' ? this.maybe_rewrite(args, body) ?? this.maybe_miss_direct(args, body) : this.maybe_rewrite_info(args, body) ?? this.maybe_rewrite_get(args, body) ?? this.maybe_refuse_stepdown(args, body)) ?? frame);
      }
      if (out.length > 0) client.write(Buffer.concat(out));
    });
  }

  /**
   * MSG <subject> <sid> <total bytes>: a JetStream API answer to a message get on gets_subject, rewritten as
   * the leader's copy of another batch; null to keep the frame. The answer carries the message's headers and
   * payload in base64 (`message.hdrs`, `message.data`).
   */
  private maybe_rewrite_get(args: string[], body: Buffer): Buffer | null {
    if ((this.gets_subject === null && this.gets_unavailable === null && !this.all_gets_unavailable) || args.length !== 4) return null;
    const marker = '"type":"io.nats.jetstream.api.v1.stream_msg_get_response"';
    if (!body.subarray(0, 200).toString('latin1').includes(marker)) return null;
    if (this.all_gets_unavailable) return this.refused_get(args);
    const answer = JSON.parse(body.toString('utf8')) as { message?: { subject: string; seq: number; hdrs?: string; data?: string } };
    const message = answer.message;
    if (message !== undefined && message.subject === this.gets_unavailable) return this.refused_get(args);
    if (message === undefined || message.subject !== this.gets_subject) return null;
    const headers = new Map<string, string>();
    const header_lines = Buffer.from(message.hdrs ?? '', 'base64').toString('latin1').split('\r\n');
    for (const line of header_lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const replaced = this.rewrite({ consumer: '', stream_seq: message.seq, headers, payload: Buffer.from(message.data ?? '', 'base64') });
    if (replaced === null || replaced === 'drop') return null;
    this.gets_rewritten++;
    let head = 'NATS/1.0\r\n';
    for (const [name, value] of replaced.headers) head += `${name}: ${value}\r\n`;
    head += '\r\n';
    const rewritten = Buffer.from(JSON.stringify({ ...answer, message: { ...message, hdrs: Buffer.from(head, 'latin1').toString('base64'), data: replaced.payload.toString('base64') } }), 'utf8');
    return api_answer_frame(args, rewritten);
  }

  /** The answer a server without a meta-group leader gives a message get (see gets_unavailable). */
  private refused_get(args: string[]): Buffer {
    this.gets_refused++;
    const refusal = { type: 'io.nats.jetstream.api.v1.stream_msg_get_response', error: { code: 503, err_code: 10008, description: 'JetStream system temporarily unavailable' } };
    return api_answer_frame(args, Buffer.from(JSON.stringify(refusal), 'utf8'));
  }

  /**
   * MSG <subject> <sid> <total bytes>: a JetStream API answer to a stream leader step-down, replaced by the answer a
   * server without a meta-group leader gives (see gets_unavailable) while refuse_stepdowns; null to keep the frame.
   * The step-down itself still happens on the server: the node is told it failed, as when the answer is lost.
   */
  private maybe_refuse_stepdown(args: string[], body: Buffer): Buffer | null {
    if (!this.refuse_stepdowns || args.length !== 4) return null;
    const type = 'io.nats.jetstream.api.v1.stream_leader_stepdown_response';
    if (!body.subarray(0, 200).toString('latin1').includes(`"type":"${type}"`)) return null;
    this.stepdowns_refused++;
    const refusal = { type, error: { code: 503, err_code: 10008, description: 'JetStream system temporarily unavailable' } };
    return api_answer_frame(args, Buffer.from(JSON.stringify(refusal), 'utf8'));
  }

  /** MSG <subject> <sid> <total bytes>: a JetStream API answer to a stream info of `stream`, as info_rewrite has it; null to keep the frame. */
  private maybe_rewrite_info(args: string[], body: Buffer): Buffer | null {
    if (args.length !== 4 || !body.subarray(0, 200).toString('latin1').includes('"type":"io.nats.jetstream.api.v1.stream_info_response"')) return null;
    const answer = JSON.parse(body.toString('utf8'));
    const replaced = answer.config?.name === this.stream ? this.info_rewrite(answer) : null;
    if (replaced === null) return null;
    this.infos_rewritten++;
    return api_answer_frame(args, Buffer.from(JSON.stringify(replaced), 'utf8'));
  }

  /** HMSG <subject> <sid> <header bytes> <total bytes>: a direct get's answer for `stream`, replaced while direct_misses lasts. */
  private maybe_miss_direct(args: string[], body: Buffer): Buffer | null {
    if (this.direct_misses <= 0 || args.length !== 5) return null;
    const head = body.subarray(0, Number(args[3])).toString('latin1');
    if (!head.startsWith('NATS/1.0\r\n') || !head.includes(`Nats-Stream: ${this.stream}\r\n`) || !head.includes('Nats-Sequence:')) return null;
    this.direct_misses--;
    this.direct_missed++;
    const status = Buffer.from('NATS/1.0 404 Message Not Found\r\n\r\n', 'latin1');
    return Buffer.concat([Buffer.from(`HMSG ${args[1]} ${args[2]} ${status.length} ${status.length}\r\n`, 'latin1'), status, Buffer.from('\r\n')]);
  }

  /** HMSG <subject> <sid> [reply] <header bytes> <total bytes>: a rewritten frame, or null to keep it. */
  private maybe_rewrite(args: string[], body: Buffer): Buffer | null {
    if (args.length !== 6) return null; // no reply subject: not a consumer's delivery
    const reply = args[3];
    const tokens = reply.split('.');
    if (tokens[0] !== '$JS' || tokens[1] !== 'ACK') return null;
    // $JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.… (v1), or with a domain and account hash first (v2).
    const v2 = tokens.length >= 12;
    const stream = tokens[v2 ? 4 : 2];
    const consumer = tokens[v2 ? 5 : 3];
    const stream_seq = Number(tokens[v2 ? 7 : 5]);
    if (stream !== this.stream) return null;
    const header_bytes = Number(args[4]);
    const header_lines = body.subarray(0, header_bytes).toString('latin1').split('\r\n');
    if (header_lines[0].trim() !== 'NATS/1.0') return null; // a status (heartbeat, flow control), not a message
    const headers = new Map<string, string>();
    for (const line of header_lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const replaced = this.rewrite({ consumer, stream_seq, headers, payload: Buffer.from(body.subarray(header_bytes)) });
    if (replaced === null) return null;
    if (replaced === 'drop') {
      this.dropped++;
      return Buffer.alloc(0);
    }
    this.rewritten++;
    let head = 'NATS/1.0\r\n';
    for (const [name, value] of replaced.headers) head += `${name}: ${value}\r\n`;
    head += '\r\n';
    const head_bytes = Buffer.from(head, 'latin1');
    const control = `HMSG ${args[1]} ${args[2]} ${reply} ${head_bytes.length} ${head_bytes.length + replaced.payload.length}\r\n`;
    return Buffer.concat([Buffer.from(control, 'latin1'), head_bytes, replaced.payload, Buffer.from('\r\n')]);
  }
}

/** One frame of the NATS client protocol: a control line, or a line with its payload (body, without the CRLF after it). */
interface Frame {
  op: string;
  args: string[];
  /** The whole frame as it came, line and payload. */
  frame: Buffer;
  body: Buffer | null;
}

/**
 * The whole frames at the front of `pending` and what is left of a frame still on its way. `with_payload` names the
 * operations followed by a payload whose length ends their line: PUB and HPUB from a client, MSG and HMSG from a server.
 */
function split_frames(pending: Buffer, with_payload: readonly string[]): { frames: Frame[]; rest: Buffer } {
  const frames: Frame[] = [];
  for (;;) {
    const line_end = pending.indexOf('\r\n');
    if (line_end < 0) break;
    const args = pending.subarray(0, line_end).toString('latin1').split(' ').filter((arg) => arg !== '');
    const op = (args[0] ?? '').toUpperCase();
    if (!with_payload.includes(op)) {
      frames.push({ op, args, frame: pending.subarray(0, line_end + 2), body: null });
      pending = pending.subarray(line_end + 2);
      continue;
    }
    const total = Number(args[args.length - 1]);
    if (pending.length < line_end + 2 + total + 2) break; // the rest of this frame is still on its way
    frames.push({ op, args, frame: pending.subarray(0, line_end + 2 + total + 2), body: pending.subarray(line_end + 2, line_end + 2 + total) });
    pending = pending.subarray(line_end + 2 + total + 2);
  }
  return { frames, rest: pending };
}

/** A MSG frame (MSG <subject> <sid> <total bytes>) carrying another answer to the same request. */
function api_answer_frame(args: string[], body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`MSG ${args[1]} ${args[2]} ${body.length}\r\n`, 'latin1'), body, Buffer.from('\r\n')]);
}
