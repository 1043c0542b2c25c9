/** The scripted fake model server (OpenAI and Anthropic wires) for tests and benchmarks. See server.ts. */
export { FakeModelServer, type RecordedRequest, type ReplyFunction, type Wire } from './server';
export { DEFAULT_USAGE, renderFailure, type FakeFailure, type FakeReply, type FakeUsage } from './replies';
