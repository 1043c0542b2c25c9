/** The result comparison lives with `nl2sql eval`, which compares results the same way. */
export * from '../../src/engine/verified/evaluation/result-compare';
