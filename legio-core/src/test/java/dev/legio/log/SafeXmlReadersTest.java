package dev.legio.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafeXmlReadersTest {
  @TempDir Path dir;

  @Test
  void anExternalEntityIsNeverRead() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret.txt"), "the secret");
    String xml =
        "<!DOCTYPE x [<!ENTITY e SYSTEM \"" + secret.toUri() + "\">]><x>before &e; after</x>";
    for (boolean coalescing : new boolean[] {true, false}) {
      XMLStreamReader reader =
          SafeXmlReaders.factory(coalescing).createXMLStreamReader(new StringReader(xml));
      StringBuilder text = new StringBuilder();
      assertThatThrownBy(
              () -> {
                while (reader.hasNext()) {
                  if (reader.next() == XMLStreamReader.CHARACTERS) {
                    text.append(reader.getText());
                  }
                }
              })
          .isInstanceOf(XMLStreamException.class);
      assertThat(text.toString()).doesNotContain("the secret");
    }
  }

  @Test
  void coalescingReadsTextAndCdataAsOneEvent() throws Exception {
    XMLStreamReader reader =
        SafeXmlReaders.factory(true)
            .createXMLStreamReader(new StringReader("<x>a<![CDATA[b]]>c</x>"));
    reader.nextTag();
    assertThat(reader.next()).isEqualTo(XMLStreamReader.CHARACTERS);
    assertThat(reader.getText()).isEqualTo("abc");
  }
}
