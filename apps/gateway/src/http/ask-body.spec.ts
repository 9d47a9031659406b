import { CotaError } from '@cota/contracts';
import { parseAskBody } from './ask-body';
import { HttpError, toHttpError } from './http-error';

const ok = { question: 'CNPJ do HGLG11?', conversation_id: 'c-1', nickname: 'Ana', client_id: 'ana' };

describe('parseAskBody (CONTRACT: exactly question, conversation_id, nickname, client_id)', () => {
  it('accepts the four string fields', () => {
    expect(parseAskBody(ok, 2000)).toEqual(ok);
  });

  it.each([
    [{ ...ok, extra: 1 }, "'extra'"],
    [{ conversation_id: 'c', nickname: 'a', client_id: 'x' }, "'question'"],
    [{ ...ok, question: 3 }, "'question'"],
    [{ ...ok, question: '   ' }, "'question'"],
    [{ ...ok, nickname: null }, "'nickname'"],
    [{ ...ok, conversation_id: 'tem espaço' }, "'conversation_id'"],
    [{ ...ok, client_id: '' }, "'client_id'"],
    [{ ...ok, question: 'x'.repeat(2001) }, "'question'"],
  ])('rejects %j with 400 naming %s', (body, field) => {
    try {
      parseAskBody(body, 2000);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(HttpError);
      expect((e as HttpError).status).toBe(400);
      expect((e as HttpError).message).toContain(field);
    }
  });

  it.each([
    ['question', 'CNPJ do HGLG11?\u0000'],
    ['question', 'a\u001bb'],
    ['nickname', 'A\u0000na'],
    ['nickname', '\u0007'],
    ['conversation_id', 'c\u0000'],
    ['client_id', 'ana\u0000'],
    ['question', 'lone \ud800 surrogate'],
    ['nickname', '\udc00'],
  ])('rejects control characters and lone surrogates in %s with 400 naming it', (field, value) => {
    expect(() => parseAskBody({ ...ok, [field]: value }, 2000)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining(`'${field}'`) }));
  });

  it('keeps tab, line breaks, emoji, RTL and combining marks', () => {
    const question = 'Qual\to CNPJ\r\ndo HGLG11? 🏢👍🏽 مرحبا e\u0301';
    expect(parseAskBody({ ...ok, question, nickname: 'Zoë 👩‍💻' }, 2000)).toMatchObject({ question, nickname: 'Zoë 👩‍💻' });
  });

  it('names an unexpected key without echoing control characters or its whole length', () => {
    try {
      parseAskBody({ ...ok, ['k\u0000'.repeat(100)]: 1 }, 2000);
      throw new Error('accepted');
    } catch (e) {
      expect((e as HttpError).status).toBe(400);
      expect((e as HttpError).message).not.toContain('\u0000');
      expect((e as HttpError).message.length).toBeLessThan(200);
    }
  });

  it.each([undefined, [], 'texto', null])('rejects a non-object body %j', (body) => {
    expect(() => parseAskBody(body, 2000)).toThrow(HttpError);
  });
});

describe('toHttpError', () => {
  it('maps a service outage to 503 naming the service, a timeout to 504', () => {
    const e503 = toHttpError(new CotaError('UNAVAILABLE', 'no responders', undefined, 'planner'));
    expect(e503.status).toBe(503);
    expect(e503.message).toContain('planner');
    expect(toHttpError(new CotaError('TIMEOUT', 'slow', undefined, 'executor')).status).toBe(504);
  });

  it('never leaks internal messages', () => {
    const e = toHttpError(new Error('relation "x" does not exist at SELECT ...'));
    expect(e.status).toBe(500);
    expect(e.message).not.toMatch(/SELECT|relation/);
  });
});
