package dev.legio.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The fast scanner ({@link TranscriptScanner}) and Jackson agree on every line: what is an entry,
 * its type and ids, what is metadata, a tombstone, malformed or a partial last line.
 *
 * <p>The lines are JSON written with random white space and random escapes (in keys too), random
 * nesting (past the scanner's depth of 63, where it hands over to Jackson), strings with quotes,
 * backslashes, control characters, non-ASCII and surrogate pairs; lines torn at any byte (as a
 * crash leaves them), other JSON values, trailing bytes, blank lines, a torn last line with no
 * newline, and raw bytes that are not UTF-8 (or are forms Jackson decodes) put in anywhere. The
 * reference is Jackson's tree parser, independent of the scanner's own streaming fallback. A third
 * of the lines are then edited at random (a byte inserted, deleted or replaced, up to three times,
 * from a set that breaks the grammar: commas, colons, brackets, quotes, backslashes, digits, signs,
 * letters of literals, control characters), and some name a kept field twice; every line the
 * scanner returns parses with {@link TranscriptEntry#json()}.
 */
class TranscriptScannerJacksonAgreementTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /**
   * Whether the bytes are UTF-8 as Jackson decodes a string: a lead byte C0-DF, E0-EF or F0-F7
   * followed by one, two or three bytes 80-BF (overlong forms and encoded surrogates pass).
   */
  static boolean utf8(byte[] line) {
    for (int i = 0; i < line.length; ) {
      int b = line[i] & 0xff;
      int more = b < 0x80 ? 0 : b < 0xC0 ? -1 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : b < 0xF8 ? 3 : -1;
      if (more < 0 || i + more >= line.length) {
        return false;
      }
      for (int k = 1; k <= more; k++) {
        if ((line[i + k] & 0xC0) != 0x80) {
          return false;
        }
      }
      i += 1 + more;
    }
    return true;
  }

  private static final Set<String> MESSAGE_TYPES =
      Set.of("user", "assistant", "system", "attachment", "summary");
  private static final Set<String> METADATA_TYPES =
      Set.of("progress", "agent-name", "queue-operation", "last-prompt");
  private static final String[] TYPES = {
    "user",
    "assistant",
    "system",
    "attachment",
    "summary",
    "tombstone",
    "agent-name",
    "progress",
    "queue-operation",
    "last-prompt",
    "custom-unknown",
    "User",
    ""
  };
  private static final String[] KEPT = {"type", "uuid", "parentUuid", "deletedUuid", "agentName"};

  @Provide
  Arbitrary<List<byte[]>> transcripts() {
    return Arbitraries.randoms().map(Lines::of).list().ofMaxSize(14);
  }

  @Property(tries = 1000)
  void theFastScannerAndJacksonAgreeOnEveryLine(
      @ForAll("transcripts") List<byte[]> lines, @ForAll boolean tornLastLine) {
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      file.writeBytes(lines.get(i));
      if (!(tornLastLine && i == lines.size() - 1)) {
        file.write('\n');
      }
    }
    byte[] bytes = file.toByteArray();

    Transcript scanned =
        TranscriptScanner.load("s", List.of(new TranscriptScanner.Part("p", bytes, bytes.length)));
    Expected expected = Expected.of(lines, tornLastLine);
    for (TranscriptEntry e : scanned.entries()) {
      assertThat(e.json().isObject()).as(e.rawLine()).isTrue();
    }

    String shown = new String(bytes, StandardCharsets.UTF_8);
    assertThat(scanned.entries())
        .as(shown)
        .extracting(e -> Arrays.asList(e.type(), e.uuid(), e.parentUuid()))
        .containsExactlyElementsOf(expected.entries);
    LoadReport r = scanned.report();
    assertThat(
            List.of(
                r.lines(),
                r.malformedLines(),
                r.tombstones(),
                r.tombstoned(),
                r.metadata(),
                r.unknownTypes(),
                r.partialLastLine(),
                String.valueOf(scanned.owner())))
        .as(shown)
        .isEqualTo(
            List.of(
                expected.lines,
                expected.malformed,
                expected.tombstones,
                expected.tombstoned,
                expected.metadata,
                expected.unknown,
                expected.partial,
                String.valueOf(expected.owner)));
  }

  /** What Jackson's tree parser makes of the lines, by the scanner's documented rules. */
  private static final class Expected {
    final List<List<String>> entries = new ArrayList<>();
    int lines;
    int malformed;
    int tombstones;
    int tombstoned;
    int metadata;
    final Map<String, Integer> unknown = new TreeMap<>();
    boolean partial;
    String owner;

    static Expected of(List<byte[]> lines, boolean tornLastLine) {
      Expected out = new Expected();
      Set<String> deleted = new HashSet<>();
      List<List<String>> messages = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        String trimmed = trim(lines.get(i));
        if (trimmed.isEmpty()) {
          continue;
        }
        if (tornLastLine && i == lines.size() - 1) {
          out.partial = true;
          break;
        }
        JsonNode node;
        try {
          // Jackson reads a field name it met before (in this line, or in an earlier one with a
          // warm parser) by its bytes padded with FF, so it takes {"k\xFF": ...} for "k" (and
          // {"\xFFk": ...} too): a line whose bytes are not UTF-8 as Jackson decodes strings is
          // malformed whatever it says.
          node = utf8(lines.get(i)) ? JSON.readTree(lines.get(i)) : null;
        } catch (Exception e) {
          node = null;
        }
        if (node == null || !node.isObject()) {
          out.malformed++;
          continue;
        }
        out.lines++;
        String type = text(node, "type");
        if (type == null) {
          out.unknown.merge("(no type)", 1, Integer::sum);
        } else if (MESSAGE_TYPES.contains(type)) {
          messages.add(Arrays.asList(type, text(node, "uuid"), text(node, "parentUuid")));
        } else if (type.equals("tombstone")) {
          if (text(node, "deletedUuid") != null) {
            deleted.add(text(node, "deletedUuid"));
            out.tombstones++;
          } else {
            out.malformed++;
          }
        } else if (METADATA_TYPES.contains(type)) {
          out.metadata++;
          if (type.equals("agent-name") && text(node, "agentName") != null) {
            out.owner = text(node, "agentName");
          }
        } else {
          out.unknown.merge(type, 1, Integer::sum);
        }
      }
      for (List<String> m : messages) {
        if (m.get(1) != null && deleted.contains(m.get(1))) {
          out.tombstoned++;
        } else {
          out.entries.add(m);
        }
      }
      return out;
    }

    private static String text(JsonNode node, String field) {
      JsonNode v = node.get(field);
      return v != null && v.isTextual() ? v.asText() : null;
    }

    /** The line as the scanner sees it for blankness: spaces, tabs and CRs around it dropped. */
    private static String trim(byte[] line) {
      int s = 0;
      int e = line.length;
      while (s < e && (line[s] == ' ' || line[s] == '\t' || line[s] == '\r')) {
        s++;
      }
      while (e > s && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) {
        e--;
      }
      return new String(line, s, e - s, StandardCharsets.ISO_8859_1);
    }
  }

  /** Random transcript lines, written by hand so that white space and escapes vary. */
  static final class Lines {
    private final Random r;
    private final StringBuilder out = new StringBuilder();

    private Lines(Random r) {
      this.r = r;
    }

    /**
     * Raw bytes put into some lines at a random place: some are not UTF-8 (a Latin-1 {@code é}
     * before ASCII, a lone {@code FF} or continuation byte, a sequence cut short, a five-byte
     * lead), some are forms Jackson decodes (overlong, an encoded surrogate, a four-byte lead past
     * U+10FFFF).
     */
    private static final int[][] RAW = {
      {0xE9, 'a'},
      {0xE9},
      {0xFF},
      {0x80},
      {0xF0, 0x9F, 0x98},
      {0xF8, 0x80, 0x80, 0x80, 0x80},
      {0xC0, 0x80},
      {0xED, 0xA0, 0x80},
      {0xF5, 0x80, 0x80, 0x80},
      {'\\', 0xC3, 0xA9}
    };

    /**
     * Bytes an edit puts into a line: each can break JSON's grammar somewhere (a stray or missing
     * comma, colon or bracket, a leading zero, a bad escape, a raw control character in a string, a
     * misspelt literal) and leave it balanced.
     */
    private static final byte[] EDITS =
        " ,:{}[]\"\\0123-+.eEtrufalsnxqU\t\u0001".getBytes(StandardCharsets.UTF_8);

    static byte[] of(Random r) {
      byte[] line = plain(r);
      if (r.nextInt(3) == 0) {
        line = edited(r, line);
      }
      if (r.nextInt(3) != 0) {
        return line;
      }
      int[] raw = RAW[r.nextInt(RAW.length)];
      int at = r.nextInt(line.length + 1);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(line, 0, at);
      for (int b : raw) {
        out.write(b);
      }
      out.write(line, at, line.length - at);
      return out.toByteArray();
    }

    /** The line with one to three bytes inserted, deleted or replaced at random places. */
    private static byte[] edited(Random r, byte[] line) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] now = line;
      for (int edits = 1 + r.nextInt(3); edits > 0; edits--) {
        int at = r.nextInt(now.length + 1);
        int kind = at == now.length ? 0 : r.nextInt(3);
        out.reset();
        out.write(now, 0, at);
        if (kind != 1) {
          out.write(EDITS[r.nextInt(EDITS.length)]); // insert (0) or replace (2)
        }
        int rest = kind == 0 ? at : at + 1; // delete (1) and replace drop the byte at `at`
        out.write(now, rest, now.length - rest);
        now = out.toByteArray();
      }
      return now;
    }

    private static byte[] plain(Random r) {
      Lines l = new Lines(r);
      int kind = r.nextInt(100);
      if (kind < 5) {
        return " \t\r".substring(0, r.nextInt(4)).getBytes(StandardCharsets.US_ASCII);
      }
      if (kind < 12) {
        l.value(0); // a JSON value that is not an object (or now and then is one)
        return l.bytes();
      }
      l.line();
      if (kind < 20) {
        l.out.append(r.nextBoolean() ? " x" : " {}"); // bytes after the object
      }
      byte[] whole = l.bytes();
      if (kind >= 20 && kind < 40 && whole.length > 1) {
        return Arrays.copyOf(whole, 1 + r.nextInt(whole.length - 1)); // torn by a crash
      }
      return whole;
    }

    private byte[] bytes() {
      return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One transcript entry: some of the kept fields, a message, other fields; keys unique. */
    private void line() {
      space();
      out.append('{');
      List<Runnable> fields = new ArrayList<>();
      for (String key : KEPT) {
        if (r.nextInt(10) < 7) {
          fields.add(() -> field(key, () -> keptValue(key)));
        }
      }
      fields.add(() -> field("message", () -> value(0)));
      Set<String> used = new HashSet<>(Arrays.asList(KEPT));
      used.add("message");
      for (int i = r.nextInt(3); i > 0; i--) {
        String key = string(6);
        if (used.add(key)) {
          fields.add(() -> field(key, () -> value(1)));
        }
      }
      if (r.nextInt(8) == 0) {
        String twice = KEPT[r.nextInt(KEPT.length)]; // a kept field named twice: the last counts
        fields.add(() -> field(twice, () -> keptValue(twice)));
      }
      java.util.Collections.shuffle(fields, r);
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        fields.get(i).run();
      }
      space();
      out.append('}');
      space();
    }

    private void field(String key, Runnable value) {
      space();
      string(key);
      space();
      out.append(':');
      space();
      value.run();
      space();
    }

    private void keptValue(String key) {
      int pick = r.nextInt(10);
      if (pick < 1) {
        value(1); // not a string: not kept
      } else if (key.equals("type")) {
        string(pick < 8 ? TYPES[r.nextInt(TYPES.length)] : string(8));
      } else {
        string(pick < 4 ? "id-" + r.nextInt(4) : string(10)); // ids repeat, so tombstones hit
      }
    }

    /** Any JSON value; now and then nested deeper than the scanner follows. */
    private void value(int depth) {
      int pick = r.nextInt(depth > 4 ? 6 : 9);
      switch (pick) {
        case 0 -> string(string(12));
        case 1 -> out.append(r.nextInt(2000) - 1000);
        case 2 -> out.append(r.nextBoolean() ? "-0.5e-3" : "12.25E+2");
        case 3 -> out.append(r.nextBoolean() ? "true" : "false");
        case 4 -> out.append("null");
        case 5 -> out.append("[]");
        case 6 -> {
          out.append('[');
          for (int i = r.nextInt(4); i > 0; i--) {
            space();
            value(depth + 1);
            space();
            out.append(i > 1 ? "," : "");
          }
          out.append(']');
        }
        case 7 -> {
          out.append('{');
          Set<String> keys = new HashSet<>();
          int n = r.nextInt(4);
          boolean first = true;
          for (int i = 0; i < n; i++) {
            String key = r.nextBoolean() ? KEPT[r.nextInt(KEPT.length)] : string(5);
            if (keys.add(key)) {
              out.append(first ? "" : ",");
              first = false;
              field(key, () -> value(depth + 1));
            }
          }
          out.append('}');
        }
        default -> {
          int levels = 50 + r.nextInt(40);
          boolean objects = r.nextBoolean();
          for (int i = 0; i < levels; i++) {
            out.append(objects ? "{\"k\":" : "[");
          }
          string(string(4));
          for (int i = 0; i < levels; i++) {
            out.append(objects ? "}" : "]");
          }
        }
      }
    }

    /** Random text: letters, quotes, backslashes, slashes, controls, non-ASCII, emoji. */
    private String string(int maxLength) {
      String[] pool = {
        "a",
        "b",
        "u",
        "i",
        "d",
        "\"",
        "\\",
        "/",
        "\n",
        "\t",
        "\u0001",
        "\u001f",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "é",
        "—",
        "\u2028",
        "😀",
        "uuid",
        "type",
        "\"uuid\":\"x\""
      };
      StringBuilder s = new StringBuilder();
      for (int i = r.nextInt(maxLength + 1); i > 0; i--) {
        s.append(pool[r.nextInt(pool.length)]);
      }
      return s.toString();
    }

    /** Writes {@code s} as a JSON string, escaping what must be and, at random, more. */
    private void string(String s) {
      out.append('"');
      s.codePoints()
          .forEach(
              cp -> {
                boolean extra = r.nextInt(8) == 0;
                if (cp == '"') {
                  out.append("\\\"");
                } else if (cp == '\\') {
                  out.append("\\\\");
                } else if (cp == '/' && extra) {
                  out.append("\\/");
                } else if (cp < 0x20) {
                  String shortForm =
                      switch (cp) {
                        case '\n' -> "\\n";
                        case '\t' -> "\\t";
                        case '\r' -> "\\r";
                        case '\b' -> "\\b";
                        case '\f' -> "\\f";
                        default -> null;
                      };
                  out.append(shortForm != null && !extra ? shortForm : unicode(cp));
                } else if (extra) {
                  out.append(unicode(cp));
                } else {
                  out.appendCodePoint(cp);
                }
              });
      out.append('"');
    }

    private static String unicode(int cp) {
      StringBuilder u = new StringBuilder();
      for (char c : Character.toChars(cp)) {
        u.append(String.format("\\u%04x", (int) c));
      }
      return u.toString();
    }

    private void space() {
      if (r.nextInt(5) == 0) {
        out.append(" \t\r ".charAt(r.nextInt(4)));
      }
    }
  }

  /** The metadata types generated here are the scanner's too. */
  @net.jqwik.api.Example
  void theGeneratedMetadataTypesAreKnownToTheScanner() {
    for (String type : METADATA_TYPES) {
      byte[] line = ("{\"type\":\"" + type + "\"}\n").getBytes(StandardCharsets.UTF_8);
      Transcript t =
          TranscriptScanner.load("s", List.of(new TranscriptScanner.Part("p", line, line.length)));
      assertThat(t.report().metadata()).as(type).isEqualTo(1);
    }
  }
}
