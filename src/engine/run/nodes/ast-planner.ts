/**
 * Step `ast_planner`: the plan of one sub-query. The model answers in its agent's planner format:
 * a SQL draft (default) that is imported into a plan here, or the typed plan itself. Either way
 * the logical validator checks the plan next and the generator compiles the SQL that runs; the
 * model's text never runs. The prompt carries the relevant schema (all of it when small, the
 * retrieved tables and columns plus join paths when large) before the prompt-cache breakpoint,
 * then similar verified queries and the question. The datasource's instructions and glossary
 * (within their budget, the terms the question names first) sit among the rules, before the
 * schema. On a retry it also carries the previous draft or plan and what was wrong with it.
 */
import { Inject, Injectable } from '@nestjs/common';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine-config';
import { DatasourceRegistry } from '../../datasources/registry';
import { SchemaIndex } from '../../index';
import { VerifiedQueries } from '../../verified/verified-queries';
import type { SchemaSnapshot } from '../../datasources/schema';
import { EngineError, PlanRejectedError, RefusalError } from '../../errors';
import { importSql, paramNames, PlanError } from '../../plan';
import { cacheScope } from '../../policy/cache-scope';
import { modelSeesFor, withoutQuotedValues } from '../../policy/model-sees';
import { verifiedVisibleTo } from '../../policy/verified-visibility';
import { plannerExamples } from './planner-examples';
import { PlanCache } from '../plan-cache';
import type { Query } from '../../plan/types';
import { AGENTS } from '../agents';
import {
  PLANNER_OUTPUT_SCHEMA,
  plannerPlanSystem,
  plannerUserMessage,
  QUERY_PLAN_TOOL,
  type PlannerAnswer,
  type PromptExample,
} from '../prompts/planner-plan';
import {
  plannerSqlSystem,
  plannerSqlUserMessage,
  SQL_DRAFT_SCHEMA,
  SQL_DRAFT_TOOL,
  type SqlDraftAnswer,
} from '../prompts/planner-sql-draft';
import { plannerSchemaText } from '../prompts/planner-schema';
import { knowledgeText } from '../prompts/knowledge';
import type { RunContext } from '../run-context';
import type { RunState, SubQueryAttempt, SubQueryState } from '../run-state';
import type { SubQueryNode } from '../node';

const FENCE = /^\s*```[a-z]*\s*\n?([\s\S]*?)\n?\s*```\s*$/i;

/** The examples' verified queries of a run that opts out of them (RunRequest.useVerified). */
const NO_VERIFIED = { forDatasource: () => [] };

@Injectable()
export class AstPlanner implements SubQueryNode {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
    private readonly index: SchemaIndex,
    private readonly verified: VerifiedQueries,
    private readonly planCache: PlanCache,
  ) {}

  /** Runs unless a verified query or the plan cache already gave this attempt its plan. */
  applies(attempt: SubQueryAttempt): boolean {
    return attempt.sq.plan === null;
  }

  async run(attempt: SubQueryAttempt, ctx: RunContext): Promise<void> {
    const { sq, run: state } = attempt;
    const snapshot = sq.snapshot;
    if (!snapshot)
      throw new EngineError('DATASOURCE_UNAVAILABLE', `no schema for datasource '${sq.datasourceId}'`);
    // model_sees none: no stored value in the prompt, no example (its literals are other questions'
    // values), and a database error sent back loses the values it quotes.
    const blind = modelSeesFor(this.config.policies.roles, state.request.caller.roles).level === 'none';
    const schemaText = await this.schemaText(sq, snapshot, state, !blind);
    const config = this.datasources.get(sq.datasourceId)?.config;
    const knowledge = config ? knowledgeText(config, sq.intent, snapshot.dialect) : '';
    if (blind && attempt.previous)
      attempt = { ...attempt, previous: withoutQuotedValues(attempt.previous, snapshot) };
    const examples = blind
      ? []
      : await plannerExamples(sq, snapshot, {
          verified: state.request.useVerified === false ? NO_VERIFIED : this.verified,
          planCache: this.planCache,
          index: this.index,
          roleScope: cacheScope(
            this.config.policies.roles,
            state.request.caller.roles,
            state.request.caller.attributes,
          ),
          visible: verifiedVisibleTo(state.request.caller.roles, this.config.policies.roles, () => snapshot),
        });
    if (ctx.models.plannerFormat(AGENTS.planner) === 'sql') {
      await this.draftSql(
        attempt,
        ctx,
        snapshot,
        plannerSqlSystem(snapshot.dialect, schemaText, knowledge),
        examples,
      );
      return;
    }
    const answer = await ctx.models.structured<PlannerAnswer>(
      AGENTS.planner,
      'ast_planner',
      plannerPlanSystem(schemaText, knowledge),
      [
        {
          role: 'user',
          content: plannerUserMessage({ question: sq.intent, examples, previous: attempt.previous }),
        },
      ],
      PLANNER_OUTPUT_SCHEMA,
      QUERY_PLAN_TOOL,
    );
    if (!answer.plan) {
      throw new RefusalError(
        'QUESTION_UNANSWERABLE',
        `the schema of '${sq.datasourceId}' cannot answer: ${answer.unanswerable_reason ?? 'no reason given'}`,
      );
    }
    sq.plan = answer.plan as unknown as Query;
    sq.planSource = 'llm';
  }

  /** The SQL-draft format: the model's SELECT, imported into a plan (a draft that does not import goes back as a problem). */
  private async draftSql(
    attempt: SubQueryAttempt,
    ctx: RunContext,
    snapshot: SchemaSnapshot,
    system: string,
    examples: PromptExample[],
  ): Promise<void> {
    const { sq, previous } = attempt;
    const answer = await ctx.models.structured<SqlDraftAnswer>(
      AGENTS.planner,
      'ast_planner',
      system,
      [
        {
          role: 'user',
          content: plannerSqlUserMessage({ question: sq.intent, examples, previous }),
        },
      ],
      SQL_DRAFT_SCHEMA,
      SQL_DRAFT_TOOL,
    );
    if (!answer.sql?.trim()) {
      throw new RefusalError(
        'QUESTION_UNANSWERABLE',
        `the schema of '${sq.datasourceId}' cannot answer: ${answer.unanswerable_reason ?? 'no reason given'}`,
      );
    }
    // Models often fence SQL (```sql ... ```) even inside a JSON string.
    sq.draftSql = (FENCE.exec(answer.sql)?.[1] ?? answer.sql).trim();
    let plan: Query;
    try {
      plan = importSql(sq.draftSql, snapshot.dialect, snapshot);
    } catch (err) {
      if (err instanceof PlanError) throw new PlanRejectedError(err.code, [err.message]);
      throw err;
    }
    // A `:name` placeholder (the verified examples use them) would leave the generator a value it
    // does not have: it goes back as a problem like any other.
    const [param] = paramNames(plan);
    if (param !== undefined)
      throw new PlanRejectedError('SQL_IMPORT_UNSUPPORTED', [
        `the SQL has a placeholder (:${param}); write the value itself as a literal`,
      ]);
    sq.plan = plan;
    sq.planSource = 'llm';
  }

  private schemaText(
    sq: SubQueryState,
    snapshot: SchemaSnapshot,
    state: RunState,
    withValues: boolean,
  ): Promise<string> {
    return plannerSchemaText({
      question: sq.intent,
      datasourceId: sq.datasourceId,
      snapshot,
      index: this.index.live(),
      policies: this.config.policies.roles,
      roles: state.request.caller.roles,
      preferredTables: this.datasources.get(sq.datasourceId)?.config.preferred_tables ?? [],
      withValues,
    });
  }
}
