// Agent Skills under `.claude/skills/` become typed items like runbooks do.
mod project {
    agentc::agents!("wild/project");
}

fn main() {
    use project::Skill;
    assert_eq!(Skill::ALL, &[Skill::PdfForms, Skill::ReleaseNotes]);
    assert_eq!("pdf-forms".parse::<Skill>(), Ok(Skill::PdfForms));
    let pdf = Skill::PdfForms.def();
    assert!(pdf.description.starts_with("Fill in PDF forms"));
    assert!(pdf.body.contains("List the form's fields"));
    assert!(pdf.routes.is_empty());
}
