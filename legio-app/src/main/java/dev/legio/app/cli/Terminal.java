package dev.legio.app.cli;

/**
 * Whether Legio runs on a terminal. Rule: a progress bar (colours, carriage returns) is drawn only
 * on a terminal; into a file or a pipe a command writes plain lines, or nothing.
 */
final class Terminal {
  private Terminal() {}

  /** True when standard output is a terminal (Java 22+ says so even when a console exists). */
  static boolean attached() {
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // before Java 22 a console exists only on a terminal
    }
  }
}
