/**
 * What a datasource's curators tell the planner and the decomposer beyond the schema: its
 * `instructions` (business rules, free text) and its `glossary` (term -> meaning in words or
 * SQL). Shown as rules, apart from the schema, within a token budget: the instructions first
 * (cut at a word with a visible mark when they alone are over it), then the glossary terms the
 * question names, in the order it names them, then the others in the config's order while the
 * budget lasts; a line says how many were left out. Tokens are estimated from characters
 * (KNOWLEDGE_CHARS_PER_TOKEN), on the safe side of what tokenizers measure on English prose.
 */
import type { Dialect } from '../../datasources/schema';
import { glossaryLine, namedTerms, type Glossary } from './glossary';

/** The planner's budget for instructions and glossary together, in tokens. */
export const KNOWLEDGE_TOKENS = 300;
/** Characters per token for the estimate (o200k reads about 4.5 on English prose, fewer on SQL). */
export const KNOWLEDGE_CHARS_PER_TOKEN = 3.5;

export interface DatasourceKnowledge {
  readonly instructions?: string | null;
  readonly glossary?: Glossary | null;
}

const RULES_HEAD = 'Business rules of this datasource (follow them):';
const GLOSSARY_HEAD = 'Terms as this datasource uses them:';
const CUT_MARK = ' […cut: the rules go on beyond this prompt’s budget]';
/** Room kept for the "left out" line when the glossary does not fit whole. */
const LEFT_OUT_RESERVE = 48;

/** The knowledge block for one question, or '' when the datasource has none. */
export function knowledgeText(
  knowledge: DatasourceKnowledge,
  question: string,
  dialect: Dialect,
  budgetTokens = KNOWLEDGE_TOKENS,
): string {
  const budget = Math.floor(budgetTokens * KNOWLEDGE_CHARS_PER_TOKEN);
  const blocks: string[] = [];
  let used = 0;
  const instructions = knowledge.instructions?.trim();
  const glossary = knowledge.glossary ?? {};
  const all = Object.keys(glossary);
  if (instructions) {
    // Long rules leave room for the line that says the glossary was left out.
    const room = budget - RULES_HEAD.length - 1 - (all.length ? LEFT_OUT_RESERVE : 0);
    const body =
      instructions.length <= room ? instructions : cutAtWord(instructions, room - CUT_MARK.length) + CUT_MARK;
    blocks.push(`${RULES_HEAD}\n${body}`);
    used += RULES_HEAD.length + 1 + body.length;
  }
  if (all.length) {
    const named = namedTerms(glossary, question);
    const order = [...named, ...all.filter((t) => !named.includes(t))];
    const lines = order.map((t) => glossaryLine(t, glossary[t] ?? '', dialect));
    const whole = GLOSSARY_HEAD.length + lines.reduce((n, l) => n + l.length + 1, 0) + 2;
    const room = budget - used - (used + whole <= budget ? 0 : LEFT_OUT_RESERVE);
    let size = GLOSSARY_HEAD.length + 2;
    const shown: string[] = [];
    for (const line of lines) {
      if (size + line.length + 1 > room) continue;
      shown.push(line);
      size += line.length + 1;
    }
    const leftOut = lines.length - shown.length;
    if (shown.length) blocks.push([GLOSSARY_HEAD, ...shown].join('\n'));
    if (leftOut)
      blocks.push(`(${leftOut} more glossary ${leftOut === 1 ? 'term' : 'terms'} left out for length)`);
  }
  return blocks.join('\n');
}

function cutAtWord(text: string, chars: number): string {
  if (chars <= 0) return '';
  const cut = text.slice(0, chars);
  const space = cut.search(/\s\S*$/);
  return (space > chars / 2 ? cut.slice(0, space) : cut).trimEnd();
}
