package dev.legio.app.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.legio.app.http.ContentEncodingRefusal;
import dev.legio.app.http.HeaderText;
import dev.legio.app.http.Utf8Body;
import dev.legio.errors.JsonSyntax;
import dev.legio.errors.Quoted;
import java.io.IOException;

/**
 * A request's body read as exactly one JSON object. Its {@code Content-Type} is {@code
 * application/json} (not a type that only starts so), in UTF-8 when it names a charset: anything
 * else is a 415. A request with two {@code Content-Type} headers is a 400, even when they agree:
 * which one describes the body is not clear, and reading the first alone would take {@code
 * application/json} beside {@code application/json; charset=utf-16} (or before {@code text/plain}).
 * Nothing may follow the object ({@code {"text": "a"} {"text": "b"}} is refused, not cut to its
 * first object) and no key may stand twice (which of two {@code text}s was meant?). A body that
 * breaks a rule is a 400 that says where (line and column) and what, in the parser's words without
 * its class and feature names ({@link JsonSyntax}). A body is read as it is sent: one with a {@code
 * Content-Encoding} other than {@code identity} (gzip, deflate, br...) is a 415 naming the
 * encoding, before any of it is read, never a parse error about its compressed bytes. Its bytes are
 * UTF-8 as Unicode defines it, else a 400 ({@link Utf8Body}).
 */
final class JsonBody {
  private static final ObjectReader STRICT =
      Json.MAPPER
          .reader()
          .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private JsonBody() {}

  /**
   * Refuses with 400 a body with more than one {@code Content-Type} ({@code contentTypes}: the
   * header's values), and with 415 one whose {@code Content-Type} is not UTF-8 JSON.
   */
  static void requireJsonType(java.util.List<String> contentTypes) {
    if (contentTypes.size() > 1) {
      throw ApiException.badRequest(
          "header 'Content-Type' is given "
              + contentTypes.size()
              + " times; send it once (Content-Type: application/json)");
    }
    String contentType = contentTypes.isEmpty() ? null : contentTypes.get(0);
    String[] parts = contentType == null ? new String[] {""} : contentType.split(";");
    boolean json = parts[0].strip().equalsIgnoreCase("application/json");
    String charset = null;
    for (int i = 1; i < parts.length; i++) {
      String[] parameter = parts[i].split("=", 2);
      if (parameter.length == 2 && parameter[0].strip().equalsIgnoreCase("charset")) {
        charset = parameter[1].strip().replace("\"", "");
      }
    }
    if (!json) {
      throw new ApiException(
          415,
          "send the body as JSON with Content-Type: application/json (got "
              + (contentType == null
                  ? "no Content-Type"
                  : "'" + HeaderText.quoted(contentType) + "'")
              + ")");
    }
    if (charset != null && !charset.equalsIgnoreCase("utf-8")) {
      throw new ApiException(
          415,
          "send the JSON in UTF-8 (Content-Type: application/json; charset=utf-8); the charset '"
              + HeaderText.quoted(charset)
              + "' is not read");
    }
  }

  /**
   * Refuses with 415 a body whose {@code Content-Encoding} ({@code encodings}: the header's values)
   * names anything but {@code identity}, by the rule of {@link ContentEncodingRefusal}.
   */
  static void requireNoContentEncoding(java.util.List<String> encodings) {
    ContentEncodingRefusal.of(encodings)
        .ifPresent(
            why -> {
              throw new ApiException(ContentEncodingRefusal.STATUS, why);
            });
  }

  /** The object {@code body} holds; a 400 when it is not exactly one JSON object. */
  static JsonNode parse(byte[] body) throws IOException {
    JsonNode node;
    try {
      node =
          Utf8Body.isPlainAscii(body)
              ? STRICT.readTree(body)
              : STRICT.readTree(Utf8Body.text(body));
    } catch (Utf8Body.NotUtf8 e) {
      throw ApiException.badRequest(e.getMessage());
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest(
          "the body is not valid JSON"
              + JsonSyntax.where(e.getLocation())
              + " ("
              + Quoted.message(JsonSyntax.what(e))
              + "); send one object such as {\"text\": \"...\"}");
    }
    if (node == null || !node.isObject()) {
      throw ApiException.badRequest(
          "the body must be a JSON object ({...} with the endpoint's fields; GET"
              + " /api/v1/openapi.json lists them)");
    }
    return node;
  }
}
