// SPDX-License-Identifier: Apache-2.0
#pragma once
// WorkloadView: the base of the views whose spec holds a pod template (Deployment, StatefulSet,
// Job). Typed access to spec.template; setters overlay (engine/api/builtin/overlay.h), so the
// server's defaults in the template (dnsPolicy, imagePullPolicy, ports' protocol, …) stay.

#include "engine/api/builtin/podtemplate.h"
#include "engine/api/objectview.h"

namespace opbench {

class WorkloadView : public ObjectView
{
public:
    /// spec.template read into the value type (fields it does not know are left out).
    PodTemplate podTemplate() const;
    /// Overlays `t` onto spec.template: fields `t` leaves unset keep their current values.
    void setTemplate(const PodTemplate &t);
    /// Sets spec.template to exactly `t`: unset fields are removed (the server defaults them again).
    void replaceTemplate(const PodTemplate &t);
    /// The container `name` of the template, if any.
    std::optional<Container> container(const QString &name) const;
    /// Overlays `c` onto the template's container of the same name, appending it when missing.
    void setContainer(const Container &c);
    /// Removes `field` ("livenessProbe", "resources", …) of container `container`; false when
    /// there is no such container or field.
    bool removeContainerField(const QString &container, const QString &field);

protected:
    using ObjectView::ObjectView;
};

} // namespace opbench
