package dev.legio.app;

import dev.legio.secrets.SecretRedactor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Standard error as Legio writes it: text is held until its line ends (or the stream is flushed)
 * and passes through {@link SecretRedactor} before it reaches the terminal, so that a stack trace
 * the JVM prints by itself cannot show a key either.
 */
public final class RedactingOutputStream extends OutputStream {
  private final OutputStream out;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

  public RedactingOutputStream(OutputStream out) {
    this.out = out;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    line.write(b);
    if (b == '\n') {
      emit();
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    int start = off;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        line.write(b, start, i + 1 - start);
        emit();
        start = i + 1;
      }
    }
    line.write(b, start, off + len - start);
  }

  @Override
  public synchronized void flush() throws IOException {
    emit();
    out.flush();
  }

  @Override
  public synchronized void close() throws IOException {
    flush();
    out.close();
  }

  private void emit() throws IOException {
    if (line.size() == 0) {
      return;
    }
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    out.write(SecretRedactor.redact(text).getBytes(StandardCharsets.UTF_8));
  }
}
