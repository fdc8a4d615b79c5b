package dev.legio.app.gateway.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class TelegramHtmlTest {

  @Test
  void hostileMarkupIsShownNotObeyed() {
    String hostile =
        "<b>bold</b> <a href=\"tg://x\">link</a> &amp; </code></pre> *md* _x_ [y](z) \\ ||s||";
    assertThat(TelegramHtml.render(hostile))
        .isEqualTo(
            "&lt;b&gt;bold&lt;/b&gt; &lt;a href=&quot;tg://x&quot;&gt;link&lt;/a&gt; &amp;amp;"
                + " &lt;/code&gt;&lt;/pre&gt; *md* _x_ [y](z) \\ ||s||");
  }

  @Test
  void codeBlocksAndSpansBecomeTelegramsTags() {
    assertThat(TelegramHtml.render("Run `ls <dir>`:\n```bash\necho \"<hi>\" && true\n```\nok"))
        .isEqualTo(
            "Run <code>ls &lt;dir&gt;</code>:\n<pre><code class=\"language-bash\">echo"
                + " &quot;&lt;hi&gt;&quot; &amp;&amp; true</code></pre>\nok");
  }

  @Test
  void aBlockLeftOpenIsClosedAndAHostileLanguageIsDropped() {
    assertThat(TelegramHtml.render("```\"><script>\nx")).isEqualTo("<pre><code>x</code></pre>");
  }

  /** Whatever the text, the only tags in the output are the ones the renderer writes. */
  @Property(tries = 500)
  void anyTextYieldsOnlyTheRenderersTags(@ForAll String text) {
    String html = TelegramHtml.render(text);
    String withoutOwnTags =
        html.replaceAll("<pre><code( class=\"language-[A-Za-z0-9+_#-]+\")?>", "")
            .replace("</code></pre>", "")
            .replace("<code>", "")
            .replace("</code>", "");
    assertThat(withoutOwnTags).doesNotContain("<", ">");
    assertThat(withoutOwnTags.replaceAll("&(lt|gt|amp|quot);", "")).doesNotContain("&");
  }
}
