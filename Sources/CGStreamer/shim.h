#ifndef TILT_CGSTREAMER_SHIM_H
#define TILT_CGSTREAMER_SHIM_H
// GStreamer (Debian: libgstreamer1.0-dev, libgstreamer-plugins-base1.0-dev): the core, the app sink and app source
// (frames in and out of a pipeline) and the raw-video helpers. Used by TiltMedia only.
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

// GStreamer's casts and reference helpers are macros, which Swift does not import; these are the ones tilt needs.
static inline GstElement *tilt_gst_element(gpointer object) { return GST_ELEMENT(object); }
static inline GstAppSink *tilt_gst_app_sink(GstElement *element) { return GST_APP_SINK(element); }
static inline GstAppSrc *tilt_gst_app_src(GstElement *element) { return GST_APP_SRC(element); }
static inline GstBin *tilt_gst_bin(GstElement *element) { return GST_BIN(element); }
static inline GObject *tilt_g_object(gpointer object) { return G_OBJECT(object); }
static inline GstMessageType tilt_gst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *tilt_gst_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
static inline void tilt_gst_message_unref(GstMessage *message) { gst_message_unref(message); }
static inline void tilt_gst_sample_unref(GstSample *sample) { gst_sample_unref(sample); }
static inline void tilt_gst_caps_unref(GstCaps *caps) { gst_caps_unref(caps); }
static inline void tilt_gst_object_unref(gpointer object) { gst_object_unref(object); }

// Properties are set with g_object_set, a variadic function Swift cannot call.
static inline void tilt_g_object_set_string(gpointer object, const char *name, const char *value) {
    g_object_set(object, name, value, NULL);
}
// A message's source object name (GST_MESSAGE_SRC_NAME), or NULL.
static inline const char *tilt_gst_message_source_name(GstMessage *message) { return GST_MESSAGE_SRC_NAME(message); }
// A buffer's presentation time and duration (GST_BUFFER_PTS, GST_BUFFER_DURATION), GST_CLOCK_TIME_NONE when unknown.
static inline GstClockTime tilt_gst_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
static inline GstClockTime tilt_gst_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
static inline GstBuffer *tilt_gst_buffer_ref(GstBuffer *buffer) { return gst_buffer_ref(buffer); }
static inline void tilt_gst_buffer_unref(GstBuffer *buffer) { gst_buffer_unref(buffer); }
static inline GstClockTime tilt_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
// A raw video sample's width, height and row stride in bytes (plane 0), from its caps; 0 when they are not video.
static inline int tilt_gst_sample_video_info(GstSample *sample, int *width, int *height, int *stride) {
    GstCaps *caps = gst_sample_get_caps(sample);
    GstVideoInfo info;
    if (caps == NULL || !gst_video_info_from_caps(&info, caps)) return 0;
    *width = GST_VIDEO_INFO_WIDTH(&info);
    *height = GST_VIDEO_INFO_HEIGHT(&info);
    *stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
    return 1;
}
/// The time of frame `index` at `numerator`/`denominator` frames per second, in nanoseconds, without rounding drift.
static inline GstClockTime tilt_gst_frame_time(guint64 index, gint numerator, gint denominator) {
    return gst_util_uint64_scale(index, GST_SECOND * (guint64)denominator, (guint64)numerator);
}

// Audio (AudioTrack, AudioCapture).
// The media type (e.g. "audio/mpeg", "video/x-vp8") that a "missing-plugin" element message says no decoder was found
// for, or NULL when the message is another one. The text is GStreamer's interned string: it outlives the message.
static inline const char *tilt_gst_missing_decoder_media_type(GstMessage *message) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return NULL;
    const GstStructure *structure = gst_message_get_structure(message);
    if (structure == NULL || !gst_structure_has_name(structure, "missing-plugin")) return NULL;
    if (g_strcmp0(gst_structure_get_string(structure, "type"), "decoder") != 0) return NULL;
    const GValue *detail = gst_structure_get_value(structure, "detail");
    if (detail == NULL || !GST_VALUE_HOLDS_CAPS(detail)) return NULL;
    const GstCaps *caps = gst_value_get_caps(detail);
    if (caps == NULL || gst_caps_get_size(caps) == 0) return NULL;
    return gst_structure_get_name(gst_caps_get_structure(caps, 0));
}
// The name of the factory that made `element` (e.g. "audiotestsrc"), or NULL.
static inline const char *tilt_gst_element_factory_name(GstElement *element) {
    GstElementFactory *factory = gst_element_get_factory(element);
    return factory == NULL ? NULL : gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory));
}
// Whether an autoaudiosrc anywhere in `bin` found no capture device it could open and stands in with the silent
// audiotestsrc it falls back to (gst-plugins-good's autodetect): then there is no microphone, only silence.
static inline int tilt_gst_bin_has_fallback_audio_source(GstBin *bin) {
    int found = 0;
    GstIterator *elements = gst_bin_iterate_recurse(bin);
    GValue item = G_VALUE_INIT;
    gboolean done = FALSE;
    while (!done && !found) {
        switch (gst_iterator_next(elements, &item)) {
        case GST_ITERATOR_OK: {
            GstElement *element = GST_ELEMENT(g_value_get_object(&item));
            GstObject *parent = gst_object_get_parent(GST_OBJECT(element));
            if (parent != NULL) {
                if (GST_IS_ELEMENT(parent)
                    && g_strcmp0(tilt_gst_element_factory_name(GST_ELEMENT(parent)), "autoaudiosrc") == 0
                    && g_strcmp0(tilt_gst_element_factory_name(element), "audiotestsrc") == 0)
                    found = 1;
                gst_object_unref(parent);
            }
            g_value_reset(&item);
            break;
        }
        case GST_ITERATOR_RESYNC: gst_iterator_resync(elements); break;
        default: done = TRUE; break;
        }
    }
    g_value_unset(&item);
    gst_iterator_free(elements);
    return found;
}
// Whether the element named `name` in `bin` (searched recursively) was made by a factory of the "Source/Audio"
// class (alsasrc, pulsesrc, pipewiresrc, osssrc, autoaudiosrc): an error from it is the capture device's.
static inline int tilt_gst_bin_child_is_audio_source(GstBin *bin, const char *name) {
    GstElement *element = gst_bin_get_by_name(bin, name);
    if (element == NULL) return 0;
    int result = 0;
    GstElementFactory *factory = gst_element_get_factory(element);
    const gchar *klass = factory == NULL ? NULL : gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
    if (klass != NULL) {
        gchar **parts = g_strsplit(klass, "/", -1);
        int source = 0, audio = 0;
        for (gchar **part = parts; *part != NULL; part++) {
            if (g_strcmp0(*part, "Source") == 0) source = 1;
            if (g_strcmp0(*part, "Audio") == 0) audio = 1;
        }
        g_strfreev(parts);
        result = source && audio;
    }
    gst_object_unref(element);
    return result;
}
#endif
