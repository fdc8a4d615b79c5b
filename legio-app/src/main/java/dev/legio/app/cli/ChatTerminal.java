package dev.legio.app.cli;

import java.io.IOException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The terminal {@code legio chat} reads from when no streams are given: the system's.
 *
 * <p>Rule: input from a pipe or a file ({@code echo '@pullo hi' | legio chat}) gets a dumb terminal
 * without a word on standard error. JLine, asked for a system terminal without being told a dumb
 * one will do, logs a warning through {@code java.util.logging} ("{@code org.jline.utils.Log logr
 * WARNING: Unable to create a system terminal, creating a dumb terminal}"), two lines with a date
 * and a class name that Legio's console logging does not format.
 */
final class ChatTerminal {
  private ChatTerminal() {}

  /** The system terminal, or a dumb one when standard input or output is no terminal. */
  static Terminal system() throws IOException {
    return TerminalBuilder.builder().system(true).dumb(true).name("legio").build();
  }
}
