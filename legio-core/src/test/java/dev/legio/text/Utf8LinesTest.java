package dev.legio.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8LinesTest {
  private static List<Utf8Lines.Line> all(byte[] bytes, int chunk) throws IOException {
    // A stream that gives at most `chunk` bytes a read, as a pipe may.
    InputStream in =
        new ByteArrayInputStream(bytes) {
          @Override
          public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, chunk));
          }
        };
    Utf8Lines lines = new Utf8Lines(in);
    List<Utf8Lines.Line> read = new ArrayList<>();
    for (Utf8Lines.Line l; (l = lines.next()) != null; ) {
      read.add(l);
    }
    return read;
  }

  @Test
  void linesEndAtNewlineWithAnOptionalCarriageReturnAndTheLastNeedsNoNewline() throws Exception {
    byte[] text = "a\r\nb\u2014c\n\nlast".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int chunk : new int[] {1, 2, 8192}) {
      assertThat(all(text, chunk))
          .containsExactly(
              new Utf8Lines.Text("a"),
              new Utf8Lines.Text("b\u2014c"),
              new Utf8Lines.Text(""),
              new Utf8Lines.Text("last"));
    }
    assertThat(all("one\n".getBytes(), 3)).containsExactly(new Utf8Lines.Text("one"));
    assertThat(all(new byte[0], 3)).isEmpty();
  }

  @Test
  void aLineThatIsNotUtf8IsNamedWithWhereAndTheNextIsReadAsEver() throws Exception {
    byte[] bytes = {'o', 'k', '\n', 'x', (byte) 0xC0, (byte) 0xAF, '\n', 'y', '\n'};
    for (int chunk : new int[] {1, 8192}) {
      assertThat(all(bytes, chunk))
          .containsExactly(
              new Utf8Lines.Text("ok"),
              new Utf8Lines.NotUtf8(2, new StrictUtf8.Malformed(1, "0xC0")),
              new Utf8Lines.Text("y"));
    }
  }
}
