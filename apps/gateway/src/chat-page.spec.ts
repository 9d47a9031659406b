import { Script } from 'node:vm';
import { renderChatPage } from './chat-page';

describe('chat page', () => {
  const html = renderChatPage();

  it('is Brazilian Portuguese and self-contained (no external scripts or styles)', () => {
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
  });

  it('ships a script that parses, streams from /ask/stream and escapes what it shows', () => {
    const js = html.split('<script>')[1].split('</script>')[0];
    expect(() => new Script(js)).not.toThrow();
    expect(js).toContain("fetch('/ask/stream'");
    expect(js).toContain('function esc(');
  });

  it('carries a CSP nonce on its only inline script and style when given one', () => {
    const page = renderChatPage('bm9uY2UtZGUtdGVzdGU=');
    expect(page.match(/<script[\s>]/g)).toHaveLength(1);
    expect(page.match(/<style[\s>]/g)).toHaveLength(1);
    expect(page).toContain('<script nonce="bm9uY2UtZGUtdGVzdGU=">');
    expect(page).toContain('<style nonce="bm9uY2UtZGUtdGVzdGU=">');
    expect(page).not.toMatch(/ on[a-z]+=|style=/); // no inline handlers or style attributes the CSP would block
    expect(() => renderChatPage('"><script>')).toThrow();
  });
});
