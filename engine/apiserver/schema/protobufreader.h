// SPDX-License-Identifier: Apache-2.0
#pragma once
// ProtobufReader: a bounds-checked cursor over protocol-buffer wire format (varints, 64-bit,
// length-delimited and 32-bit fields). It only reads: it knows nothing about messages. Any
// truncated or malformed input sets an error (error() non-empty) and stops further reads; it
// never reads past the buffer.
//
//   ProtobufReader r(bytes);
//   ProtobufReader::Field f;
//   while (r.next(&f)) { if (f.number == 1 && f.wireType == ProtobufReader::LengthDelimited) use(f.bytes); }
//   if (!r.error().isEmpty()) fail(r.error());

#include <QByteArray>
#include <QString>

namespace opbench::apiserver {

class ProtobufReader
{
public:
    enum WireType { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

    /// One field as read: `varint` holds the value for Varint/Fixed64/Fixed32 fields, `bytes`
    /// the payload (a shallow view into the input) for LengthDelimited ones.
    struct Field
    {
        quint32 number = 0;
        int wireType = Varint;
        quint64 varint = 0;
        QByteArrayView bytes;
    };

    explicit ProtobufReader(QByteArrayView data)
        : m_data(data)
    { }

    /// Reads the next field; false at the end of the input or on an error (then error() says
    /// what and at which offset). Group wire types (3, 4) are errors: Kubernetes never uses them.
    bool next(Field *field);
    bool atEnd() const { return m_pos >= m_data.size(); }
    /// Empty when everything read so far was well-formed.
    const QString &error() const { return m_error; }

private:
    bool readVarint(quint64 *value);
    bool fail(const QString &what);

    QByteArrayView m_data;
    qsizetype m_pos = 0;
    QString m_error;
};

} // namespace opbench::apiserver
