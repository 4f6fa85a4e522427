// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/schema/protobufreader.h"

#include <cstring>

namespace opbench::apiserver {

bool ProtobufReader::fail(const QString &what)
{
    if (m_error.isEmpty())
        m_error = QStringLiteral("%1 at byte %2").arg(what).arg(m_pos);
    m_pos = m_data.size();
    return false;
}

bool ProtobufReader::readVarint(quint64 *value)
{
    quint64 result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (m_pos >= m_data.size())
            return fail(QStringLiteral("truncated varint"));
        const quint8 c = quint8(m_data[m_pos++]);
        result |= quint64(c & 0x7f) << shift;
        if (c < 0x80) {
            *value = result;
            return true;
        }
    }
    return fail(QStringLiteral("varint longer than 10 bytes"));
}

bool ProtobufReader::next(Field *field)
{
    if (!m_error.isEmpty() || atEnd())
        return false;
    quint64 key = 0;
    if (!readVarint(&key))
        return false;
    field->number = quint32(key >> 3);
    field->wireType = int(key & 7);
    field->varint = 0;
    field->bytes = {};
    if (field->number == 0 || (key >> 3) > 0x1fffffff)
        return fail(QStringLiteral("invalid field number %1").arg(key >> 3));
    switch (field->wireType) {
    case Varint:
        return readVarint(&field->varint);
    case Fixed64:
    case Fixed32: {
        const qsizetype n = field->wireType == Fixed64 ? 8 : 4;
        if (m_data.size() - m_pos < n)
            return fail(QStringLiteral("truncated fixed-width field %1").arg(field->number));
        quint64 v = 0;
        std::memcpy(&v, m_data.data() + m_pos, size_t(n)); // little endian on the wire and on x86/arm
        field->varint = v;
        m_pos += n;
        return true;
    }
    case LengthDelimited: {
        quint64 len = 0;
        if (!readVarint(&len))
            return false;
        if (len > quint64(m_data.size() - m_pos))
            return fail(QStringLiteral("field %1 claims %2 bytes, only %3 left")
                            .arg(field->number)
                            .arg(len)
                            .arg(m_data.size() - m_pos));
        field->bytes = m_data.sliced(m_pos, qsizetype(len));
        m_pos += qsizetype(len);
        return true;
    }
    default:
        return fail(QStringLiteral("unsupported wire type %1 for field %2").arg(field->wireType).arg(field->number));
    }
}

} // namespace opbench::apiserver
