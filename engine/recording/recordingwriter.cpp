// SPDX-License-Identifier: Apache-2.0
#include "engine/recording/recordingwriter_p.h"

#include <cstring>

namespace opbench::recording {

namespace {
constexpr size_t kBatch = 512;
constexpr std::chrono::milliseconds kFlushInterval(100);

void appendObjectField(QByteArray &out, const ObjectField &field)
{
    if (!field.key)
        return;
    out += ",\"";
    out += field.key;
    out += "\":";
    if (field.object.isNull())
        out += "null";
    else
        field.object.appendJsonTo(out);
}

} // namespace

RecordingWriter::RecordingWriter(QString path, qint64 maxBytes)
    : m_path(std::move(path))
    , m_maxBytes(maxBytes)
    , m_file(m_path)
{ }

RecordingWriter::~RecordingWriter() { close(); }

Expected<void> RecordingWriter::open(QByteArray headerBody)
{
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Status(0, QStringLiteral("Invalid"),
            QStringLiteral("cannot write the recording %1: %2").arg(m_path, m_file.errorString()));
    m_header = std::move(headerBody);
    writeLine(m_header);
    m_file.flush();
    m_running = true;
    m_thread = std::thread([this] { run(); });
    return {};
}

void RecordingWriter::append(QByteArray body, Mirror mirror, QByteArray key)
{
    Pending p;
    p.body = std::move(body);
    p.mirror = mirror;
    p.key = std::move(key);
    enqueue(std::move(p));
}

void RecordingWriter::appendWithObjects(
    QByteArray head, ObjectField first, ObjectField second, Mirror mirror, QByteArray key)
{
    Pending p;
    p.body = std::move(head);
    p.mirror = mirror;
    p.key = std::move(key);
    p.objects = true;
    p.first = std::move(first);
    p.second = std::move(second);
    enqueue(std::move(p));
}

void RecordingWriter::enqueue(Pending p)
{
    bool wake = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_running || m_stop)
            return;
        m_queue.push_back(std::move(p));
        ++m_queued;
        // The writer wakes by itself every kFlushInterval; a full batch wakes it early. No
        // wake-up per record: that would be a system call on the engine thread each time.
        wake = m_queue.size() == kBatch;
    }
    if (wake)
        m_wake.notify_one();
}

void RecordingWriter::flush()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    if (!m_running)
        return;
    const qint64 target = m_queued;
    m_flushWanted = true;
    m_wake.notify_one();
    m_done.wait(lock, [&] { return m_handled >= target || !m_running; });
}

void RecordingWriter::close()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_running)
            return;
        m_stop = true;
    }
    m_wake.notify_one();
    if (m_thread.joinable())
        m_thread.join();
    m_file.close();
    std::lock_guard<std::mutex> lock(m_mutex);
    m_running = false;
    m_done.notify_all();
}

void RecordingWriter::run()
{
    std::vector<Pending> batch;
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        m_wake.wait_for(lock, kFlushInterval, [&] { return m_stop || m_queue.size() >= kBatch || m_flushWanted; });
        if (m_queue.empty() && !m_stop) {
            m_flushWanted = false;
            m_done.notify_all();
            continue;
        }
        batch.swap(m_queue);
        const bool stopping = m_stop;
        m_flushWanted = false;
        lock.unlock();
        for (const Pending &p : batch)
            writeOne(p);
        m_file.flush();
        const qint64 n = qint64(batch.size());
        batch.clear();
        lock.lock();
        m_handled += n;
        m_done.notify_all();
        if (stopping && m_queue.empty())
            return;
    }
}

void RecordingWriter::writeOne(const Pending &p)
{
    QByteArray completed; // the body with its objects' JSON and closing brace
    if (p.objects) {
        completed.reserve(p.body.size() + 2048);
        completed += p.body;
        appendObjectField(completed, p.first);
        appendObjectField(completed, p.second);
        completed += '}';
        if (p.mirror == Mirror::Put && m_maxBytes > 0)
            completed.squeeze(); // kept for the snapshot: no spare room per cached object
    }
    const QByteArray &body = p.objects ? completed : p.body;
    const qint64 lineBytes = body.size() + 24;
    if (m_maxBytes > 0 && m_fileBytes + lineBytes > m_maxBytes && m_seq > 1)
        rotate();
    writeLine(body);
    mirror(p, body);
}

void RecordingWriter::writeLine(const QByteArray &body)
{
    // Three writes into QFile's buffer rather than one line assembled in a copy of the body.
    char prefix[32] = "{\"seq\":";
    const QByteArray seq = QByteArray::number(m_seq++);
    const qsizetype prefixSize = 7 + seq.size() + 1;
    std::memcpy(prefix + 7, seq.constData(), size_t(seq.size()));
    prefix[prefixSize - 1] = ',';
    const qint64 lineSize = prefixSize + body.size() + 1;
    const bool failed
        = m_file.write(prefix, prefixSize) != prefixSize || m_file.write(body) != body.size() || !m_file.putChar('\n');
    m_fileBytes += lineSize;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (failed && m_error.isEmpty())
        m_error = QStringLiteral("writing %1: %2").arg(m_path, m_file.errorString());
    m_totalBytes += lineSize;
    ++m_records;
}

void RecordingWriter::mirror(const Pending &p, const QByteArray &body)
{
    if (m_maxBytes <= 0)
        return; // never rotates: no snapshot to keep
    switch (p.mirror) {
    case Mirror::None:
        break;
    case Mirror::Informer:
        m_informers.append(body);
        break;
    case Mirror::Put:
        m_objects.insert(p.key, body);
        break;
    case Mirror::Remove:
        m_objects.remove(p.key);
        break;
    }
}

void RecordingWriter::rotate()
{
    m_file.close();
    const QString older = m_path + QStringLiteral(".1");
    QFile::remove(older);
    QFile::rename(m_path, older);
    m_file.setFileName(m_path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_error.isEmpty())
            m_error = QStringLiteral("rotating %1: %2").arg(m_path, m_file.errorString());
        return;
    }
    m_seq = 0;
    m_fileBytes = 0;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_rotations;
    }
    writeLine(m_header);
    for (const QByteArray &informer : std::as_const(m_informers))
        writeLine(informer);
    for (auto it = m_objects.cbegin(); it != m_objects.cend(); ++it)
        writeLine(it.value());
}

qint64 RecordingWriter::bytesWritten() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_totalBytes;
}

qint64 RecordingWriter::recordsWritten() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_records;
}

int RecordingWriter::rotations() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_rotations;
}

QString RecordingWriter::error() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_error;
}

} // namespace opbench::recording
