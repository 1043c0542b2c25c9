/** The page's pure parts: reading Server-Sent Events in pieces, and choosing a chart from a result's shape. */
import { chartShape } from '../../src/web/page/chart-shape';
import { SseParser } from '../../src/web/page/sse-parser';

describe('SseParser', () => {
  const stream =
    'event: run.started\ndata: {"name":"run.started"}\n\n' +
    ': a comment\r\nevent: answer.delta\r\ndata: {"text":"a\r\ndata: b"}\r\n\r\n' +
    'data: plain\n\n';

  it('gives the same events however the text is cut, \\r\\n split across pieces included', () => {
    const whole = new SseParser().push(stream);
    expect(whole).toEqual([
      { event: 'run.started', data: '{"name":"run.started"}' },
      { event: 'answer.delta', data: '{"text":"a\nb"}' },
      { event: 'message', data: 'plain' },
    ]);
    for (let size = 1; size <= 7; size++) {
      const parser = new SseParser();
      const out = [];
      for (let i = 0; i < stream.length; i += size) out.push(...parser.push(stream.slice(i, i + size)));
      expect({ size, out }).toEqual({ size, out: whole });
    }
  });

  it('keeps an unfinished event until its blank line comes', () => {
    const parser = new SseParser();
    expect(parser.push('event: x\ndata: 1\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'x', data: '1' }]);
  });
});

describe('chartShape', () => {
  it('draws bars for one category and one number (DECIMAL as a string of digits too)', () => {
    expect(
      chartShape(
        ['region', 'revenue'],
        [
          ['Europe', '1077362.05'],
          ['Asia', 362966.5],
        ],
      ),
    ).toEqual({ kind: 'bar', label: 0, value: 1 });
    // A month number is a category; extra text columns are left out of the chart.
    expect(
      chartShape(
        ['month', 'revenue'],
        [
          [1, 10],
          [2, 12],
        ],
      ),
    ).toEqual({ kind: 'bar', label: 0, value: 1 });
    expect(
      chartShape(
        ['product', 'brand', 'revenue'],
        [
          ['a', 'x', 1],
          ['b', 'y', 2],
        ],
      ),
    ).toEqual({ kind: 'bar', label: 0, value: 2 });
  });

  it('draws lines for a date or time followed by numbers', () => {
    expect(
      chartShape(
        ['day', 'revenue', 'orders'],
        [
          ['2024-01-01', 1, 2],
          ['2024-01-02', 3, null],
        ],
      ),
    ).toEqual({ kind: 'line', x: 0, series: [1, 2] });
    expect(
      chartShape(
        ['at', 'n'],
        [
          ['2024-01-01T10:00:00Z', 1],
          ['2024-01-01 11:00:00', 2],
        ],
      ),
    ).toEqual({ kind: 'line', x: 0, series: [1] });
  });

  it('draws nothing when the shape does not suit', () => {
    expect(chartShape(['n'], [[1], [2]])).toBeNull();
    expect(chartShape(['region', 'revenue'], [['Europe', 1]])).toBeNull();
    expect(
      chartShape(
        ['region', 'orders', 'revenue'],
        [
          ['a', 1, 2],
          ['b', 3, 4],
        ],
      ),
    ).toBeNull();
    expect(
      chartShape(
        ['a', 'b'],
        [
          ['x', 'y'],
          ['z', 'w'],
        ],
      ),
    ).toBeNull();
    expect(
      chartShape(
        ['day', 'region'],
        [
          ['2024-01-01', 'x'],
          ['2024-01-02', 'y'],
        ],
      ),
    ).toBeNull();
    expect(
      chartShape(
        ['revenue', 'region'],
        [
          [1.5, 'x'],
          [2.5, 'y'],
        ],
      ),
    ).toBeNull();
  });
});
