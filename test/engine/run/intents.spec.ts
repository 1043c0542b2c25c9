/** The cheap check that decides whether the decomposer's model call is needed. */
import { mayHaveSeveralIntents } from '../../../src/engine/run/nodes/intents';

it.each([
  'How many orders were placed last month?',
  'What was the total revenue per region in 2024?',
  'Which 10 products generated the most revenue in 2023?',
  'List the names and ages of singers from France, ordered by age',
  'Show the average salary for each department and its manager',
  'Count the customers who ordered both pens and ink',
])('one intent: %s', (q) => {
  expect(mayHaveSeveralIntents(q)).toBe(false);
});

it.each([
  'How many orders were placed? And what was their total?',
  'What was the revenue in 2023 and which product sold best?',
  'List the stores in France, then show their employees',
  'Total sales per region; top 5 customers by spend',
  'Show last month’s orders. Also list the returns.',
  'How many users signed up, and how many of them ordered?',
])('several intents: %s', (q) => {
  expect(mayHaveSeveralIntents(q)).toBe(true);
});

it.each([
  'How many countries does each continent have? List the continent id, continent name and the number of countries.',
  'For the cars with 4 cylinders, which model has the largest horsepower?',
  'In 1980, how many cars were made?',
])('a second sentence or clause that only shapes the answer is one intent: %s', (q) => {
  expect(mayHaveSeveralIntents(q)).toBe(false);
});
