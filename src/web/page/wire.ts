/**
 * The wire shapes the page reads, under the names it uses. They are the types generated from the
 * OpenAPI snapshot docs/openapi.json (generated/, rewritten by `npm run openapi:write` and held
 * equal to the snapshot by test/contract/page-wire-types.spec.ts), so the page cannot drift from
 * what the routes answer. The page's own route is not in the contract: its type is shared instead.
 */
import type * as Api from './generated/types.gen';

export type { PageContext } from '../../api/playground/page-context.types';

export type ListedDatasource = Api.ListedDatasourceDto;
export type IndexStatus = Api.IndexStatusDto;
export type AgentEntry = Api.AgentEntryDto;
export type SubQueryResponse = Api.SubQueryResponseDto;
export type ResultSummary = Api.ResultSummaryDto;
export type UsageRecord = Api.UsageRecordDto;
export type QueryResponse = Api.QueryResponseDto;
export type ResultPage = Api.ResultPageDto;
export type RunEvent = Api.RunEvent;
export type FeedbackResponse = Api.FeedbackResponse;
export type Suggestion = Api.SuggestionDto;
