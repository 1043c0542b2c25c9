/** The one interface of every pipeline step, and the table of nodes by name the loop runs. */
import type { RunContext } from './run-context';
import type { RunState, SubQueryAttempt } from './run-state';
import type { RunNodeName, SubQueryNodeName } from './topology';

/**
 * Every pipeline step. `S` is the run state for the steps before and after the sub-queries, and
 * one sub-query's attempt for the steps in between. A node that does not apply to a state (the
 * executor of a plan-only run, the validator of a verified query) is skipped with no events.
 */
export interface PipelineNode<S> {
  applies?(state: S): boolean;
  run(state: S, ctx: RunContext): Promise<void>;
}

export type RunNode = PipelineNode<RunState>;
export type SubQueryNode = PipelineNode<SubQueryAttempt>;

/** The node of each name: a missing or extra node does not compile. */
export type NodeTable = { readonly [N in RunNodeName]: RunNode } & {
  readonly [N in SubQueryNodeName]: SubQueryNode;
};
